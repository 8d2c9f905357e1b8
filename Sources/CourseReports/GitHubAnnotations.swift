import CourseModel

/// Findings as GitHub Actions workflow commands (`--format github`, chosen by itself when
/// `GITHUB_ACTIONS=true`): `::error file=…,line=…,col=…,title=…::message` (`::warning`,
/// `::notice` for a note), which GitHub shows
/// on the lines of the pull request. Each finding is one line: its notes and diff go into the
/// message with encoded line ends, so nothing a lesson or a scenario printed can start a
/// command of its own in the log.
package enum GitHubAnnotations {
    package static func annotation(_ diagnostic: Diagnostic) -> String {
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties.append("file=" + property(location.file))
            if location.line > 0 {
                properties.append("line=\(location.line)")
                if location.column > 0 { properties.append("col=\(location.column)") }
            }
        }
        properties.append("title=" + property("coursebook: \(diagnostic.id.rawValue)"))
        var message = diagnostic.summary
        for note in diagnostic.notes {
            message += "\nnote: " + (note.location.map { "\($0): " } ?? "") + note.message
        }
        if let attachment = diagnostic.attachment, !attachment.isEmpty {
            message += "\n" + (attachment.hasSuffix("\n") ? String(attachment.dropLast()) : attachment)
        }
        return "::\(command) \(properties.joined(separator: ","))::\(data(message))"
    }

    /// A command's message: `%`, CR and LF encoded as GitHub reads them (`%25`, `%0D`, `%0A`),
    /// after other control characters are shown as `<U+001B>`.
    package static func data(_ text: String) -> String {
        var shown = ""
        for character in escapingControls(text, keepingLines: true).unicodeScalars {
            switch character {
            case "%": shown += "%25"
            case "\r": shown += "%0D"
            case "\n": shown += "%0A"
            default: shown.unicodeScalars.append(character)
            }
        }
        return shown
    }

    /// A property's value: as `data`, and `:` and `,` encoded too (`%3A`, `%2C`), which
    /// would otherwise end the value.
    package static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
