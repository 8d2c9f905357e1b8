import CourseModel

/// The one writer of diagnostics: `path:line:column: error: summary`, then `note:` lines, then
/// the attachment (a diff, a program's output) as it is. Editors and tools read the first
/// line; colour only when standard error is a terminal.
struct DiagnosticFormatter {
    var colors: Bool

    func format(_ diagnostic: Diagnostic) -> String {
        var lines = [line(diagnostic.location, severity: diagnostic.severity.rawValue, diagnostic.summary)]
        for note in diagnostic.notes {
            lines.append(line(note.location, severity: "note", note.message))
        }
        if let attachment = diagnostic.attachment, !attachment.isEmpty {
            lines.append(attachment.hasSuffix("\n") ? String(attachment.dropLast()) : attachment)
        }
        return lines.joined(separator: "\n")
    }

    private func line(_ location: SourceLocation?, severity: String, _ message: String) -> String {
        var place = ""
        if let location {
            place = location.line > 0 ? "\(location):" : "\(location.file):"
            place += " "
        }
        return place + paint(severity + ":", severity) + " " + message
    }

    private func paint(_ text: String, _ severity: String) -> String {
        guard colors else { return text }
        let code = severity == "error" ? "1;31" : severity == "warning" ? "1;35" : "1;36"
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
