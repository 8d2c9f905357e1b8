internal import CourseFiles
internal import CourseModel
import Foundation
import Processes
import SwiftReading
#if canImport(Glibc)
import Glibc
#endif

/// Where a command's Swift blocks are parsed: in `coursebook read-swift`, a process of its own
/// that the command asks (see `SwiftBlockReader` for why the toolchain's parser is not run in
/// the command's own process). Each block's answer must come within `timeLimit(forBytes:)`;
/// one that does not, or that ends the process, is a block not read.
package enum SwiftReadingProcess {
    /// The argument that makes `coursebook` the reading process.
    package static let command = "read-swift"

    /// How long the reading of a block of `bytes` may take: 5 s, and 0.1 s more per KiB. A
    /// block reads in milliseconds (the parser reads 50 to 100 KiB a second, 20 KiB with every
    /// core busy compiling), so only a block that the parser cannot read in linear time comes
    /// near it.
    package static func timeLimit(forBytes bytes: Int) -> Duration {
        .seconds(5) + .milliseconds(100) * (bytes / 1024)
    }

    /// The executable is `coursebook`: it starts itself to read Swift.
    package static func readWithThisProgram() {
        OwnProgram.runningIsCoursebook()
    }

    /// Reading in the reading process, for a `SwiftBlockReader`; nil without one.
    static func elsewhere() -> SwiftReadingElsewhere? {
        guard let executable = OwnProgram.path else { return nil }
        // A crash there is reported at once: no backtrace is symbolicated for seconds.
        var environment = ["SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin"]
        // A sanitized build (`make sanitize`) reads in a sanitized process too, under the
        // options its tests gave (a stack overflow left to the kernel, the leaks suppressed).
        for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"] {
            environment[name] = ProcessInfo.processInfo.environment[name]
        }
        let child = AnsweringChild(executable: executable, arguments: [command], environment: environment)
        let scratch = NSTemporaryDirectory()
        return { requests in
            let programs = min(requests.count, ProcessInfo.processInfo.activeProcessorCount)
            return child.ask(requests, programs: programs, scratch: scratch,
                             timeLimit: { timeLimit(forBytes: $0.count) })
                .map { $0.mapError { SwiftReadingFailure(reason: words(for: $0)) } }
        }
    }

    /// Why a block got no reading, as its finding says it.
    static func words(for failure: AnsweringChild.Failure) -> String {
        switch failure {
        case .tookTooLong(let limit):
            "reading it took longer than \(seconds(limit)), the time coursebook gives the Swift parser for a block this size"
        case .ended(.signaled(let signal)):
            "the Swift parser crashed on it (signal \(signal)\(signal == SIGSEGV ? ", most likely its stack overflowed" : ""))"
        case .ended(let termination):
            "the process that read it ended without an answer (\(termination))"
        case .notStarted(let why):
            "the process that reads Swift could not start: \(why)"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole) s" : String(format: "%.2f s", Double(whole) + Double(fraction) / 1e18)
    }

    /// `coursebook read-swift`: the requests framed on standard input, each answer framed on
    /// standard output as soon as it is made (see `AnsweringChild.serve`). It never runs a
    /// block's code.
    package static func serve() -> Int32 {
        // Typed by hand it would wait for frames that never come.
        if isatty(0) == 1 {
            FileHandle.standardError.write(Data("coursebook read-swift: the process a command reads Swift blocks in, started by the command itself; it reads framed requests on standard input\n".utf8))
            return 64
        }
        return AnsweringChild.serve(SwiftBlockReader.answer)
    }
}
