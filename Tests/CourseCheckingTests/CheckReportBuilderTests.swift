@testable import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// The one maker of a check's report: `--strict` applied where a finding comes in, once, to the
/// report's findings and the scenario's alike; a lesson whose update was not written fails, and
/// its finding comes after the course's own.
struct CheckReportBuilderTests {
    static let lessons = [
        "# One\n\n## Measured\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n\nDR1. Limit.\n",
        "# Two\n\n## Measured\n\n```swift scenario\nprint(2)\n```\n\n```output\n2\n```\n\nDR2. Limit.\n",
    ]

    func result(_ course: Course, lesson: Int) -> ScenarioResult {
        ScenarioResult(lessonIndex: lesson, scenario: course.lessons[lesson].scenarios[0], status: .passed,
                       outcome: .completed(output: "\(lesson + 1)\n", standardError: "", fromCache: false))
    }

    @Test func strictTurnsAWarningIntoAnErrorWhereItIsRecorded() {
        let (course, _) = TestSupport.course(Self.lessons)
        let warning = Diagnostic.warning(.languageWords, "no words", at: SourceLocation(file: course.configPath, line: 0))
        for strict in [false, true] {
            var builder = CheckReportBuilder(strict: strict, scope: .wholeCourse)
            builder.record([warning])
            builder.record(result(course, lesson: 0), findings: [warning])
            let report = builder.report(of: course)
            let severity: Diagnostic.Severity = strict ? .error : .warning
            #expect(report.diagnostics.map(\.severity) == [severity, severity])
            #expect(report.results[0].findings.map(\.severity) == [severity])
            #expect(report.succeeded == !strict)
        }
    }

    @Test func aLessonNotWrittenFailsAndItsFindingComesLast() {
        let (course, _) = TestSupport.course(Self.lessons)
        var builder = CheckReportBuilder(strict: false, scope: .wholeCourse)
        builder.record(result(course, lesson: 0), findings: [])
        builder.record(result(course, lesson: 1), findings: [])
        let late = Diagnostic.error(.lessonChanged, "changed", at: SourceLocation(file: course.lessons[0].path, line: 1))
        let early = Diagnostic.warning(.languageWords, "no words", at: SourceLocation(file: course.lessons[1].path, line: 9))
        builder.record([early])
        builder.wrote([], notWritten: [(lesson: 0, finding: late)])
        let report = builder.report(of: course)
        #expect(report.results.map(\.status) == [.failed, .passed])
        #expect(report.diagnostics.map(\.id) == [.languageWords, .lessonChanged])
    }
}
