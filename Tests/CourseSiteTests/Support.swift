import CourseModel
import CoursePipeline
@testable import CourseSite
import Foundation
import TestSupport
import Testing

/// A fixture course checked for real (scenarios compiled and run, no cache) and rendered with
/// its templates, as `coursebook build` would write it.
func renderedFixture(_ name: String) throws -> (CheckReport, [SiteFile]) {
    var options = BuildCommandOptions()
    options.shared.course = fixtures.appendingPathComponent(name).path
    options.shared.cache = .none
    let (checked, files) = try Pipeline().siteFiles(options)
    return (checked.report, files)
}

extension [SiteFile] {
    func text(_ path: String) -> String {
        first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
    }
}
