internal import CourseModel
import ScenarioRunning

extension Pipeline {
    /// The compiler scenarios run with (`COURSEBOOK_SWIFTC`, else `swiftc` on `PATH`): its path
    /// and version line, or why there is none. For `coursebook --version`.
    package func compiler() -> Result<(path: String, version: String), PipelineError> {
        do {
            let compiler = try SwiftCompiler.locate(versionCache: Self.compilerVersionMemo)
            return .success((compiler.executable, compiler.version))
        } catch {
            return .failure(PipelineError(path: nil, status: .toolchainUnavailable,
                                          diagnostic: .error(.toolchainUnavailable, error.description, at: nil)))
        }
    }
}
