import CourseModel
@testable import CoursePipeline
import Foundation
import TestSupport
import Testing

/// Change diagrams are kept with the other per-block results: a warm build draws nothing anew,
/// and a kept drawing that does not verify is drawn again, never shown.
struct DiagramPipelineTests {
    func buildOptions(_ root: URL) -> BuildCommandOptions {
        var build = BuildCommandOptions()
        build.shared.course = fixtures.appendingPathComponent("diagrams").path
        build.shared.cache = .folder(root.appendingPathComponent("cache").path)
        build.out = root.appendingPathComponent("site").path
        build.search = false
        return build
    }

    func page(_ root: URL) throws -> String {
        try String(contentsOf: root.appendingPathComponent("site/01-diagrams.html"), encoding: .utf8)
    }

    @Test func aWarmBuildDrawsNothingAnew() throws {
        let root = temporaryFolder("diagram-pipeline")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Pipeline()
        _ = try first.build(buildOptions(root))
        #expect(first.counts.diagramsDrawn.load(ordering: .relaxed) == 1)
        let drawn = try page(root)
        #expect(drawn.contains("<figure class=\"diagram"))

        let warm = Pipeline()
        let built = try warm.build(buildOptions(root))
        #expect(warm.counts.diagramsDrawn.load(ordering: .relaxed) == 0)
        #expect(warm.counts.swiftParses.load(ordering: .relaxed) == 0)
        #expect(built.checked.cache.refusals == 0)
        #expect(try page(root) == drawn)
    }

    @Test func aKeptDrawingThatDoesNotVerifyIsDrawnAgain() throws {
        let root = temporaryFolder("diagram-forged")
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Pipeline().build(buildOptions(root))
        let drawn = try page(root)
        let cache = root.appendingPathComponent("cache")
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".svg") }
        #expect(kept.count == 1)
        let entry = cache.appendingPathComponent(kept[0])
        let forged = try String(contentsOf: entry, encoding: .utf8).replacingOccurrences(of: "Counter", with: "<script>alert(1)</script>")
        try forged.write(to: entry, atomically: true, encoding: .utf8)

        let again = Pipeline()
        let built = try again.build(buildOptions(root))
        #expect(again.counts.diagramsDrawn.load(ordering: .relaxed) == 1)
        #expect(built.checked.cache.refusals == 1)
        #expect(try page(root) == drawn)
    }
}
