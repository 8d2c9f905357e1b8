internal import CourseModel
import ScenarioRunning

extension Pipeline {
    /// The compiler scenarios run with (`COURSEBOOK_SWIFTC`, else `swiftc` on `PATH`): its path
    /// and version line, or why there is none. For `coursebook --version`.
    package func compiler() -> Result<(path: String, version: String), PipelineError> {
        do {
            let compiler = try SwiftCompiler.locate(versionCache: Self.compilerVersionMemo)
            // Its language mode comes after the version on a machine that had not asked yet:
            // waited for, so that the memo is kept and no compiler outlives this command.
            _ = compiler.defaultLanguageMode
            return .success((compiler.executable, compiler.version))
        } catch {
            return .failure(PipelineError(path: nil, status: .toolchainUnavailable,
                                          diagnostic: .error(.toolchainUnavailable, error.description, at: nil)))
        }
    }
}
