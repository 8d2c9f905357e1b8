import CourseModel

/// One line as coursebook prints it to a terminal or a CI log, whatever it holds: a path, a
/// scenario's output, a compiler's message, a lesson's text. Every character that could drive
/// the terminal or end the line (a control character, a line feed included, U+2028, U+2029, a
/// bidirectional control) is shown as `<U+000A>`, so one line printed is one line read; and
/// nothing in it can start a GitHub Actions workflow command. A tab stays a tab.
///
/// How GitHub's runner finds a command (actions/runner, `ActionCommand.TryParseV2` and
/// `TryParse`, tried in that order on every line a step prints): a line whose text, after its
/// leading white space is trimmed, starts with `::` (`::error::`, `::add-mask::`,
/// `::stop-commands::`), or a line that holds `##[` anywhere, followed by a registered command
/// and `]`. So a line whose first characters past its white space are `::` gets its second
/// colon shown as `<U+003A>` (`    :<U+003A>stop-commands::x`), and every `##[` gets its bracket
/// shown as `<U+005B>` (`##<U+005B>set-output name=x]`): visible, in the notation the tool uses
/// for every character it will not print, and read back by replacing the token with the
/// character it names. Nothing else changes: `::` inside a line, or `#[`, is left alone.
package enum LogLine {
    /// `line` as it may be printed: a line of its own. `colours`: the colour sequences that
    /// `DiagnosticFormatter` paints severities with may stay (standard error to a terminal);
    /// every other escape character is shown as `<U+001B>`.
    package static func shown(_ line: String, colours: Bool = false) -> String {
        neutralizingCommands(escaping(line, colours: colours), atStart: true)
    }

    /// A workflow command coursebook writes itself (`::error file=…::…`, from
    /// `GitHubAnnotations`): it keeps its `::` start, since it is meant to be one, but not a
    /// `##[` of what it carries, nor any character that would end it.
    package static func command(_ line: String) -> String {
        neutralizingCommands(escaping(line, colours: false), atStart: false)
    }

    /// The colour sequences of `DiagnosticFormatter`, the only escape sequences ever printed.
    static let colourSequences = ["\u{1B}[1;31m", "\u{1B}[1;35m", "\u{1B}[1;36m", "\u{1B}[0m"]

    static func escaping(_ line: String, colours: Bool) -> String {
        guard colours, line.containsBytes("\u{1B}") else { return escapingControls(line, keepingTabs: true) }
        var shown = ""
        var rest = Substring(line)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            shown += escapingControls(String(rest[..<escape]), keepingTabs: true)
            let tail = rest[escape...]
            if let sequence = colourSequences.first(where: { tail.hasPrefix($0) }) {
                shown += sequence
                rest = tail.dropFirst(sequence.count)
            } else {
                shown += codePointToken("\u{1B}")
                rest = tail.dropFirst()
            }
        }
        return shown + escapingControls(String(rest), keepingTabs: true)
    }

    /// What the runner trims before it looks for `::`: .NET's white space (Unicode's
    /// `White_Space`), and, to be safe with older trimming rules, the zero-width characters
    /// that were once counted as spaces.
    static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
            || [0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF].contains(scalar.value)
    }

    static func neutralizingCommands(_ line: String, atStart: Bool) -> String {
        var scalars = Array(line.unicodeScalars)
        var changed = false
        if atStart, let first = scalars.firstIndex(where: { !isTrimmed($0) }),
           first + 1 < scalars.count, scalars[first] == ":", scalars[first + 1] == ":" {
            scalars.replaceSubrange(first + 1...first + 1, with: codePointToken(":").unicodeScalars)
            changed = true
        }
        if line.containsBytes("##[") {
            var index = 2
            while index < scalars.count {
                if scalars[index] == "[", scalars[index - 1] == "#", scalars[index - 2] == "#" {
                    let token = Array(codePointToken("[").unicodeScalars)
                    scalars.replaceSubrange(index...index, with: token)
                    index += token.count
                    changed = true
                } else {
                    index += 1
                }
            }
        }
        guard changed else { return line }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}
