@testable import CoursebookCLI
import CourseModel
import Processes
import ScenarioRunning
import Foundation
@_exported import TestSupport
import Testing



/// The `coursebook` binary that `swift build` made beside the test bundle.
let coursebookBinary: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("coursebook").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return packageRoot.appendingPathComponent(".build/debug/coursebook").path
}()

/// What a run of the binary printed and how it ended.
struct CommandResult: Equatable, CustomStringConvertible {
    var status: Int32
    var standardOutput: String
    var standardError: String

    var description: String {
        "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
    }
}

/// Runs the built binary in `folder` (the fixtures by default), as a user would.
func coursebook(_ arguments: [String], in folder: URL = fixtures, environment: [String: String] = [:]) throws -> CommandResult {
    guard FileManager.default.isExecutableFile(atPath: coursebookBinary) else {
        Issue.record("no coursebook binary at \(coursebookBinary): run 'swift build' first")
        return CommandResult(status: -1, standardOutput: "", standardError: "")
    }
    var watcher = CollectingWatcher(timeLimit: .seconds(300))
    let termination = try ChildProcess(executable: coursebookBinary, arguments: arguments,
                                       environment: ["NO_COLOR": "1", "GITHUB_ACTIONS": ""].merging(environment) { $1 },
                                       workingDirectory: folder.path).run(watching: &watcher)
    guard case .exited(let status) = termination else {
        Issue.record("coursebook ended with \(termination)")
        return CommandResult(status: -1, standardOutput: "", standardError: "")
    }
    return CommandResult(status: status,
                         standardOutput: String(decoding: watcher.standardOutput, as: UTF8.self),
                         standardError: String(decoding: watcher.standardError, as: UTF8.self))
}

/// A copy of a fixture course with its own copy of the core, so that it can live anywhere.
func copyOfFixture(_ name: String) throws -> URL {
    let folder = temporaryFolder(name).appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder)
    try giveInvalidationCore(to: folder)
    return folder
}
