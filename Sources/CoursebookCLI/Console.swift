import Foundation

/// Where a command prints: standard output for results, standard error for diagnostics.
/// Tests hand in a console that keeps the text.
package protocol Console: AnyObject {
    func out(_ text: String)
    func error(_ text: String)
    /// Whether standard error is a terminal that wants colour.
    var colorsErrors: Bool { get }
}

/// The process's own streams.
package final class StandardConsole: Console {
    package init() {}

    package func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    package func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
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

    package func out(_ text: String) { standardOutput += text + "\n" }
    package func error(_ text: String) { standardError += text + "\n" }
    package var colorsErrors: Bool { false }
}
