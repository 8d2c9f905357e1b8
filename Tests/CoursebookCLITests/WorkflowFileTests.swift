import Foundation
import Testing

/// The repository's own CI workflow and the course workflow the manual shows are real files,
/// checked by actionlint (installed by `make`), and the manual's page on CI quotes the course workflow as it is.
struct WorkflowFileTests {
    static let workflows = [".github/workflows/ci.yml", "docs/course-workflow.yml"]

    @Test func actionlintFindsNothing() throws {
        let run = try runTool("actionlint", Self.workflows, in: packageRoot)
        #expect(run.status == 0, "\(run)")
    }

    @Test func actionlintReadsTheFiles() throws {
        // A workflow broken on purpose must be found, or the test above proves nothing.
        let root = temporaryFolder("workflow-lint")
        defer { try? FileManager.default.removeItem(at: root) }
        let good = try String(contentsOf: packageRoot.appendingPathComponent(Self.workflows[1]), encoding: .utf8)
        let broken = root.appendingPathComponent("course.yml")
        try good.replacingOccurrences(of: "needs: check", with: "needs: chek").write(to: broken, atomically: true, encoding: .utf8)
        let run = try runTool("actionlint", [broken.path], in: root)
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.contains("\"chek\""), "\(run)")
    }

    @Test func theManualQuotesTheCourseWorkflow() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let file = try String(contentsOf: packageRoot.appendingPathComponent("docs/course-workflow.yml"), encoding: .utf8)
        #expect(readme.contains("```yaml\n" + file + "```\n"))
    }

    @Test func ciRunsTheReadmesTwoCommands() throws {
        let ci = try String(contentsOf: packageRoot.appendingPathComponent(".github/workflows/ci.yml"), encoding: .utf8)
        let runs = ci.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("run: ") ? String(text.dropFirst(5)) : nil
        }
        #expect(runs == ["make", "make test"])
        let local = try String(contentsOf: packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(local.hasSuffix("make\nmake test\n"))
    }
}
