func greet(_ name: String) -> String { "hello, \(name)" }
