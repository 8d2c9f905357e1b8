import Foundation

/// The whole environment of a scenario program, batched or alone, sandboxed or not: nothing of
/// the caller's (no token, no path of the machine) but what makes runs the same every time.
package enum ScenarioEnvironment {
    /// - Parameter home: the working folder, which is also `HOME`.
    package static func variables(home: String) -> [String: String] {
        var variables = [
            "PATH": "/usr/bin:/bin",
            "HOME": home,
            "TMPDIR": "/tmp",
            // The caller's language, when it names one, for programs that read it.
            "LANG": ProcessInfo.processInfo.environment["LANG"].flatMap(safeLanguage) ?? "C.UTF-8",
            // The order of a Set, a Dictionary or the Observation framework's callbacks is the
            // same on every run, so that a cached answer stays the answer.
            "SWIFT_DETERMINISTIC_HASHING": "1",
            // A trap is reported at once, without seconds of symbolication.
            "SWIFT_BACKTRACE": "enable=no",
        ]
        variables.merge(ScenarioProgram.unbufferedOutput ?? [:]) { $1 }
        return variables
    }

    /// A locale name such as `tr_TR.UTF-8`, nothing else.
    private static func safeLanguage(_ value: String) -> String? {
        let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-@".contains($0)) }
        return allowed && !value.isEmpty && value.count < 64 ? value : nil
    }
}
