import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `coursebook` program itself, which a command starts again as a helper that answers its
/// requests (`coursebook read-swift`, see `AnsweringChild`).
package enum OwnProgram {
    /// Set by the `coursebook` executable, which answers whatever its file is called.
    private static let isCoursebook = Atomic<Bool>(false)

    /// The executable is `coursebook`: it starts itself as its helpers.
    package static func runningIsCoursebook() {
        isCoursebook.store(true, ordering: .relaxed)
    }

    /// The `coursebook` to start: this one, or else the one beside this executable (a test
    /// bundle, which the build puts in the same folder); nil when there is none.
    package static var path: String? {
        if isCoursebook.load(ordering: .relaxed) { return running }
        return beside("coursebook")
    }

    /// The running executable.
    static var running: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The program `name` in the running executable's folder, where the build puts the
    /// package's executables beside each other (and beside a test bundle); nil when it is not
    /// there or cannot be run.
    static func beside(_ name: String) -> String? {
        guard let running else { return nil }
        let path = (running as NSString).deletingLastPathComponent + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }
}

extension AnsweringChild {
    /// The answering program's side: every request framed on standard input is answered with
    /// `answer`, each answer framed on standard output as soon as it is made. It makes no core
    /// file (a crash is only an ending here). Returns the exit status: 0, or 1 when standard
    /// output is closed.
    package static func serve(_ answer: ([UInt8]) -> [UInt8]) -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            input += buffer[0..<count]
        }
        for request in unframed(input[...]).payloads {
            let frame = frame(answer(request))
            var written = 0
            while written < frame.count {
                let result = frame.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return 1 }
                written += result
            }
        }
        return 0
    }
}
