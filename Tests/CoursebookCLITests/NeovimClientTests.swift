import Foundation
import Testing

/// A real editor as the client: Debian's Neovim (installed by `make deps`), headless, runs
/// `Tests/Editors/neovim.lua`, which starts `coursebook lsp` through Neovim's own LSP client on
/// a copy of the editor fixture's first lesson, reads the diagnostics back, applies the first
/// code action and reads the diagnostics that follow.
@Suite struct NeovimClientTests {
    @Test func neovimShowsTheFindingsAndAppliesTheQuickFix() throws {
        guard let nvim = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("no nvim: 'make deps' installs Debian's neovim")
            return
        }
        let folder = temporaryFolder("neovim")
        let course = folder.appendingPathComponent("editor")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("editor"), to: course)
        try? FileManager.default.removeItem(at: course.appendingPathComponent(".coursebook-cache"))
        let lesson = course.appendingPathComponent("01-output.md")
        let original = try String(contentsOf: lesson, encoding: .utf8)
        let resultFile = folder.appendingPathComponent("result.json")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: nvim)
        process.arguments = ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c",
                             "luafile " + packageRoot.appendingPathComponent("Tests/Editors/neovim.lua").path]
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging([
            "COURSEBOOK": coursebookBinary, "LESSON": lesson.path, "RESULT": resultFile.path, "HOME": folder.path,
        ]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let seen = try JSONSerialization.jsonObject(with: Data(contentsOf: resultFile)) as? [String: Any] ?? [:]
        #expect(seen["error"] == nil, "\(seen["error"] ?? "")")
        func found(_ key: String) -> [[String]] {
            (seen[key] as? [[String: Any]] ?? []).map { diagnostic in
                ["code", "line", "col", "end_line", "end_col"].map { "\(diagnostic[$0] ?? "")" }
            }
        }
        #expect(found("diagnostics") == [["output-mismatch", "12", "0", "12", "13"],
                                         ["scenario-without-output", "19", "0", "19", "17"]])
        #expect(seen["actions"] as? [String] == ["Accept the output this run printed"])
        #expect(found("after") == [["scenario-without-output", "19", "0", "19", "17"]])
        // The buffer after the edit holds what the run printed; the file is as it was.
        let text = seen["text"] as? String ?? ""
        #expect(text == original.replacingOccurrences(of: "merhaba dunya\n```", with: "merhaba dünya\n```"))
        #expect(try String(contentsOf: lesson, encoding: .utf8) == original)
    }
}
