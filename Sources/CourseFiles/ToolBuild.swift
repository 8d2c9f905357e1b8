#if canImport(Glibc)
import Glibc
#endif

/// Which build of coursebook is running, for cache keys: the tool's version names a release,
/// but a rebuilt or upgraded program may read blocks, batch scenarios or draw diagrams
/// differently under the same version, and must not take what an older build kept for its own.
package enum ToolBuild {
    /// The running program's file, by its size and modification time (one `stat`).
    package static let identity: String = identity(of: "/proc/self/exe")

    /// `file`'s size and modification time; "unknown" when it cannot be read.
    package static func identity(of file: String) -> String {
        var info = stat()
        guard stat(file, &info) == 0 else { return "unknown" }
        return "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// The tool's version joined with this build's identity: the version part of every key.
    package static func keyVersion(_ toolVersion: String) -> String { "\(toolVersion) build \(identity)" }
}
