import CourseModel

/// The one writer of diagnostics: `path:line:column: error: summary`, then `note:` lines, then
/// the attachment (a diff, a program's output). Editors and tools read the first line; colour
/// only when standard error is a terminal. Control characters from anything a lesson or a
/// scenario wrote (an escape sequence, a carriage return) are shown as `<U+001B>`, never sent
/// to the terminal or the CI log.
package struct DiagnosticFormatter: Sendable {
    package var colors: Bool

    package init(colors: Bool) {
        self.colors = colors
    }

    package func format(_ diagnostic: Diagnostic) -> String {
        lines(diagnostic).joined(separator: "\n")
    }

    /// The finding's lines: its own, its notes', and each line of its attachment, the
    /// attachment's line ends being the only ones that divide it (for a console, which prints
    /// each line as one).
    package func lines(_ diagnostic: Diagnostic) -> [String] {
        var lines = [line(diagnostic.location, severity: diagnostic.severity.rawValue, diagnostic.summary)]
        for note in diagnostic.notes {
            lines.append(line(note.location, severity: "note", note.message))
        }
        if let attachment = diagnostic.attachment, !attachment.isEmpty {
            let shown = escapingControls(attachment, keepingLines: true)
            lines += (shown.hasSuffix("\n") ? String(shown.dropLast()) : shown).components(separatedBy: "\n")
        }
        return lines
    }

    private func line(_ location: SourceLocation?, severity: String, _ message: String) -> String {
        var place = ""
        if let location {
            place = escapingControls(location.line > 0 ? "\(location):" : "\(location.file):")
            place += " "
        }
        return place + paint(severity + ":", severity) + " " + escapingControls(message)
    }

    private func paint(_ text: String, _ severity: String) -> String {
        guard colors else { return text }
        let code = severity == "error" ? "1;31" : severity == "warning" ? "1;35" : "1;36"
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
