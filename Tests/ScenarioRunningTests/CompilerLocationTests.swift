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

    /// The check does not wait for the language mode before it goes on (its Swift readings
    /// need only the version): `locate` returns while the mode's compiler still runs, and the
    /// mode, once asked for, is what that compiler said, kept in the memo then.
    @Test func theLanguageModeIsNotWaitedForToLocateTheCompiler() throws {
        let folder = temporaryFolder("compiler-mode-later")
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try SwiftCompiler.locate(versionCache: nil)
        // A swiftc whose type-check (the language mode's question) waits for a file that
        // appears only once `locate` has returned (or for 10 s, so that nothing hangs).
        let gate = folder.appendingPathComponent("gate").path, swiftc = folder.appendingPathComponent("swiftc").path
        try """
            #!/bin/sh
            case " $* " in
            *" -typecheck "*) n=0; while [ ! -e '\(gate)' ] && [ $n -lt 500 ]; do sleep 0.02; n=$((n+1)); done ;;
            esac
            exec '\(real.executable)' "$@"

            """.write(toFile: swiftc, atomically: true, encoding: .utf8)
        chmod(swiftc, 0o755)
        let memo = folder.appendingPathComponent("compiler-version").path
        let located = try SwiftCompiler.locate(swiftc, versionCache: memo, planCache: nil)
        #expect(located.version == real.version)
        #expect(!FileManager.default.fileExists(atPath: memo), "the memo was kept before the language mode was asked")
        FileManager.default.createFile(atPath: gate, contents: Data())
        #expect(located.defaultLanguageMode == real.defaultLanguageMode)
        let kept = try String(contentsOfFile: memo, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(kept.last.map(String.init) == real.defaultLanguageMode?.rawValue)
    }
}
