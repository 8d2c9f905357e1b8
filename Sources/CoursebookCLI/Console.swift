import CourseReports
import Foundation

/// The two streams a command prints to.
package enum ConsoleStream: Sendable {
    /// Results: the tally, the updates, GitHub annotations.
    case output
    /// Diagnostics.
    case error
}

/// Where a command prints: standard output for results, standard error for diagnostics. Tests
/// hand in a console that keeps the text.
///
/// Everything reaches the streams line by line through `LogLine`: a line given to `out` or
/// `error` is one line printed, whatever it holds (a line end in a path is shown as
/// `<U+000A>`, an escape character as `<U+001B>`), and no line can start a GitHub Actions
/// workflow command but the annotations written with `annotation`. Text of many lines (a help
/// page, a diagnostic with its diff) is handed over as its lines.
package protocol Console: AnyObject {
    /// Writes lines that `LogLine` made safe, each followed by a line end.
    func write(_ lines: [String], to stream: ConsoleStream)
    /// Whether standard error is a terminal that wants colour.
    var colorsErrors: Bool { get }
}

extension Console {
    /// One line on standard output.
    package func out(_ line: String) { out(lines: [line]) }

    /// Lines on standard output.
    package func out(lines: [String]) {
        write(lines.map { LogLine.shown($0) }, to: .output)
    }

    /// One line on standard error.
    package func error(_ line: String) { error(lines: [line]) }

    /// Lines on standard error. `painted`: lines of `DiagnosticFormatter`, whose colours pass
    /// when the terminal wants them (every other escape character is shown, as in any line).
    package func error(lines: [String], painted: Bool = false) {
        let colours = painted && colorsErrors
        write(lines.map { LogLine.shown($0, colours: colours) }, to: .error)
    }

    /// A workflow command of coursebook's own (`GitHubAnnotations`), on standard output.
    package func annotation(_ command: String) {
        write([LogLine.command(command)], to: .output)
    }
}

extension String {
    /// A text of coursebook's own (a help page) as its lines, for `out(lines:)`.
    var lines: [String] { components(separatedBy: "\n") }
}

/// The process's own streams.
package final class StandardConsole: Console {
    package init() {}

    package func write(_ lines: [String], to stream: ConsoleStream) {
        let data = Data(lines.map { $0 + "\n" }.joined().utf8)
        switch stream {
        case .output: FileHandle.standardOutput.write(data)
        case .error: FileHandle.standardError.write(data)
        }
    }

    package var colorsErrors: Bool {
        isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }
}

/// A console that keeps what was printed, for tests.
package final class RecordingConsole: Console {
    package private(set) var standardOutput = ""
    package private(set) var standardError = ""

    package init() {}

    package func write(_ lines: [String], to stream: ConsoleStream) {
        let text = lines.map { $0 + "\n" }.joined()
        switch stream {
        case .output: standardOutput += text
        case .error: standardError += text
        }
    }

    package var colorsErrors: Bool { false }
}
