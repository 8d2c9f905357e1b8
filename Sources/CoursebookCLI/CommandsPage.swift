/// The tables of docs/commands.md that the command registry writes: the commands, and the
/// options of each. Each sits between two marker comments, and `regenerated` writes every one
/// of them again, leaving the prose around them as it is (`make docs-reference`; a test fails
/// when the page and the registry drift apart).
enum CommandsPage {
    /// A table the page must hold, with the name its markers carry.
    struct Region: Equatable {
        var name: String
        var table: String
    }

    /// Every generated region: the commands, then each command's options.
    static var regions: [Region] {
        [Region(name: "commands", table: commandsTable)]
            + Coursebook.subcommands.map { Region(name: "options of '\($0.name)'", table: optionsTable($0.options)) }
    }

    static func begin(_ name: String) -> String {
        "<!-- \(name): generated from the command registry by 'make docs-reference'; do not edit -->\n"
    }

    static func end(_ name: String) -> String { "<!-- end of \(name) -->\n" }

    /// Every command with its arguments, and what it does; `help` and the options `coursebook`
    /// takes in place of a command last.
    static var commandsTable: String {
        let rows = Coursebook.commands.map { (cell("coursebook " + $0.synopsis), $0.summary) }
            + Coursebook.topLevelOptions.map { option in
                (option.names.map { cell("coursebook " + $0) }.joined(separator: ", "), option.help)
            }
        return table(["command", "what it does"], rows)
    }

    /// A command's options and what the manual says of each; `--help` last.
    static func optionsTable(_ options: [OptionRow]) -> String {
        let rows = (options + [OptionRow.help]).map { option in
            (option.names.map { cell($0 + (option.value.map { " \($0)" } ?? "")) }.joined(separator: ", "),
             option.manual + (option.required == nil ? "" : " (required)"))
        }
        return table(["option", "meaning"], rows)
    }

    /// A Markdown table of two columns.
    static func table(_ heading: [String], _ rows: [(String, String)]) -> String {
        "| \(heading[0]) | \(heading[1]) |\n|---|---|\n" + rows.map { "| \($0.0) | \($0.1) |\n" }.joined()
    }

    /// Text as code in a table cell (a `|` in it escaped, so that it does not end the cell).
    static func cell(_ text: String) -> String {
        "`" + text.replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    /// The page with every region's table written again from the registry.
    static func regenerated(_ page: String) throws(CommandsPageError) -> String {
        var text = page
        for region in regions {
            guard let start = text.range(of: begin(region.name)) else { throw .missing(region.name) }
            guard let stop = text.range(of: end(region.name), range: start.upperBound..<text.endIndex) else {
                throw .unclosed(region.name)
            }
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: region.table)
        }
        let known = Set(regions.map { begin($0.name) })
        if let stranger = text.split(separator: "\n", omittingEmptySubsequences: false)
            .first(where: { $0.hasPrefix("<!-- ") && $0.contains("generated from the command registry") && !known.contains($0 + "\n") }) {
            throw .unknown(String(stranger))
        }
        return text
    }
}

/// Why docs/commands.md cannot take the registry's tables.
enum CommandsPageError: Error, Equatable, CustomStringConvertible {
    /// No begin marker for a region the registry writes (a command the page does not document).
    case missing(String)
    /// A begin marker without its end marker.
    case unclosed(String)
    /// A begin marker for a region the registry does not write (a command that is gone).
    case unknown(String)

    var description: String {
        switch self {
        case .missing(let name): "docs/commands.md has no region for the \(name) (its marker: \(CommandsPage.begin(name).dropLast()))"
        case .unclosed(let name): "docs/commands.md opens the region of the \(name) and does not end it (\(CommandsPage.end(name).dropLast()))"
        case .unknown(let line): "docs/commands.md has a generated region that no command of the registry writes: \(line)"
        }
    }
}
