func decodeEmbedded(_ text: String) -> String { "" }
