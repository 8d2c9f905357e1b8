import Foundation
import Processes
import ScenarioRunning
import TestSupport
import Testing

/// The layers' import rules live in Package.swift: the LayerRules plugin's checker fails a
/// build whose sources import a target their layer does not list, and the manifest refuses a
/// list that would let a layer reach what it forbids.
@Suite(.serialized) struct LayerRulesTests {
    /// The checker the plugin runs, built beside the test bundle.
    let checker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("ImportChecker").path

    func check(_ source: String, target: String = "CourseSite",
               mayImport: [String] = ["CourseModel", "CourseFiles", "LessonParsing"]) throws -> (Int32, String) {
        let folder = temporaryFolder("imports")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Page.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let modules = ["CourseModel", "CourseFiles", "LessonParsing", "Processes", "ScenarioRunning", "CourseSite", "CCmarkGFM", "CProcess"]
        var watcher = CollectingWatcher(timeLimit: .seconds(60))
        let termination = try ChildProcess(
            executable: checker,
            arguments: ["--target", target, "--stamp", folder.appendingPathComponent("stamp.swift").path]
                + mayImport.flatMap { ["--may-import", $0] } + modules.flatMap { ["--package-module", $0] }
                + ["--", file.path]).run(watching: &watcher)
        guard case .exited(let status) = termination else { return (-1, "") }
        return (status, String(decoding: watcher.standardError, as: UTF8.self).replacingOccurrences(of: folder.path + "/", with: ""))
    }

    @Test func allowedImportsPass() throws {
        let (status, errors) = try check("import CourseModel\nimport Foundation\ninternal import LessonParsing\n")
        #expect(status == 0 && errors.isEmpty)
    }

    @Test(arguments: [
        ("import ScenarioRunning\n", "ScenarioRunning", 1),
        ("import Foundation\n@testable import ScenarioRunning\n", "ScenarioRunning", 2),
        ("internal import CCmarkGFM\n", "CCmarkGFM", 1),
        ("@_implementationOnly import CProcess\n", "CProcess", 1),
        ("import struct Processes.ChildProcess\n", "Processes", 1),
    ])
    func aLayerReachingTheWrongWayFailsTheBuild(source: String, module: String, line: Int) throws {
        let (status, errors) = try check(source)
        #expect(status == 1)
        #expect(errors == "Page.swift:\(line):1: error: CourseSite imports \(module), which Package.swift does not let it import (it may import: CourseFiles, CourseModel, LessonParsing)\n")
    }

    /// The manifest refuses a dependency that would let the site reach the runner or start a
    /// program, or the change diagrams reach a parser (through the site).
    @Test(arguments: [
        (#"("CourseSite", ["CourseModel", "CourseFiles", "LessonParsing", "ChangeDiagrams", "HTMLText", "BackgroundWork"]),"#,
         #"("CourseSite", ["CourseModel", "CourseFiles", "LessonParsing", "ChangeDiagrams", "HTMLText", "BackgroundWork", "CoursePipeline"]),"#,
         "CourseSite may not depend on ScenarioRunning, directly or through another layer"),
        (#"("CourseSite", ["CourseModel", "CourseFiles", "LessonParsing", "ChangeDiagrams", "HTMLText", "BackgroundWork"]),"#,
         #"("CourseSite", ["CourseModel", "CourseFiles", "LessonParsing", "ChangeDiagrams", "HTMLText", "BackgroundWork", "Processes"]),"#,
         "CourseSite may not depend on Processes, directly or through another layer"),
        (#"("ChangeDiagrams", ["CourseModel", "HTMLText"]),"#,
         #"("ChangeDiagrams", ["CourseModel", "HTMLText", "CourseSite"]),"#,
         "ChangeDiagrams may not depend on LessonParsing, directly or through another layer"),
    ])
    func theManifestRefusesAForbiddenReach(rule: String, widened: String, refusal: String) throws {
        let folder = temporaryFolder("manifest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(rule))
        try manifest.replacingOccurrences(of: rule, with: widened)
            .write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        guard let swift = findOnPath("swift") else { Issue.record("no swift on PATH"); return }
        var watcher = CollectingWatcher(timeLimit: .seconds(300))
        let termination = try ChildProcess(executable: swift, arguments: ["package", "dump-package"],
                                           workingDirectory: folder.path).run(watching: &watcher)
        let errors = String(decoding: watcher.standardError + watcher.standardOutput, as: UTF8.self)
        #expect(!termination.isSuccess)
        #expect(errors.contains(refusal))
    }
}
