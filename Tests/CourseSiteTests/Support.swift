@testable import CourseKit
@testable import CourseSite
import Foundation
@_exported import TestSupport
import Testing

/// A fixture course checked for real (scenarios compiled and run, no cache) and rendered with
/// the built-in templates.
func renderedFixture(_ name: String) throws -> (Course, CheckReport, [SiteFile]) {
    let (course, diagnostics) = try CourseLoader.load(folder: packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path)
    let runner = ScenarioRunner(
        compiler: try SwiftCompiler.locate(versionCache: nil),
        coreFiles: course.coreFiles.map { .init(path: $0.path, displayPath: $0.displayPath) },
        settings: RunSettings(), cache: nil)
    let report = CourseCheck.run(course, loadDiagnostics: diagnostics, options: CheckOptions(), runner: runner)
    let words = SiteWords.forLanguage(course.config.language) ?? .english
    let files = SitePages.render(course: course, report: report, templates: try TemplateSet.builtIn(), words: words)
    return (course, report, files)
}

extension [SiteFile] {
    func text(_ path: String) -> String {
        first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
    }
}
