@testable import ScenarioRunning
import CourseModel
import Foundation
import TestSupport
import Testing

/// What `SwiftCompiler.locate` asks the toolchain once (its version, its runtime's folder and
/// the language mode it compiles in when given none) and what it remembers of it.
struct CompilerLocationTests {
    /// On a machine that knows nothing of the compiler, both questions are asked (at once) and
    /// both answers kept; the next command reads them back without starting a compiler.
    @Test func aNewMachineLearnsTheVersionAndTheLanguageModeAndKeepsThem() throws {
        let folder = temporaryFolder("compiler-location")
        defer { try? FileManager.default.removeItem(at: folder) }
        let memo = folder.appendingPathComponent("cache/compiler-version").path
        let learned = try SwiftCompiler.locate(versionCache: memo)
        #expect(learned.version.hasPrefix("Swift version "))
        #expect(learned.runtimeFolder != nil)
        let mode = try #require(learned.defaultLanguageMode)
        let kept = try String(contentsOfFile: memo, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(kept.count == 6)
        #expect(kept.last.map(String.init) == mode.rawValue)
        #expect(kept[3] == learned.version[...])

        let remembered = try SwiftCompiler.locate(versionCache: memo)
        #expect(remembered.version == learned.version)
        #expect(remembered.defaultLanguageMode == mode)
        #expect(remembered.runtimeFolder == learned.runtimeFolder)
    }
}
