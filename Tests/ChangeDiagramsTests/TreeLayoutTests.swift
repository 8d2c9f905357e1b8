@testable import ChangeDiagrams
import Testing

/// The tidy layout of a view tree, and its outline: for random trees of up to 30 views (and
/// forests), no two boxes overlap, no two edges cross, no edge runs through a box, every edge
/// joins a parent to its child, and a parent stands above its children.
struct TreeLayoutTests {
    /// A small deterministic generator (SplitMix64), so that a failure can be repeated.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// A random forest: each view's parent is an earlier view (or none, for a root), its
    /// width between a short and a long name's. Some shapes are pushed towards chains, some
    /// towards fans, some are left to chance.
    static func randomTree(_ random: inout Random, size: Int) -> (parents: [Int?], widths: [Double]) {
        var parents: [Int?] = [nil]
        let style = random.below(3)
        for index in 1..<size {
            switch style {
            case 0: parents.append(random.below(4) == 0 ? random.below(index) : index - 1)   // chains
            case 1: parents.append(random.below(max(1, min(index, 3))))                     // fans
            default: parents.append(random.below(8) == 0 ? nil : random.below(index))
            }
        }
        // Views are not always written parent first: shuffle the order, keeping the shape.
        var order = Array(0..<size)
        for index in stride(from: size - 1, to: 0, by: -1) { order.swapAt(index, random.below(index + 1)) }
        var position = [Int](repeating: 0, count: size)
        for (place, view) in order.enumerated() { position[view] = place }
        var shuffled = [Int?](repeating: nil, count: size)
        for view in 0..<size { shuffled[position[view]] = parents[view].map { position[$0] } }
        let widths = (0..<size).map { _ in Double(60 + random.below(140)) + (random.below(2) == 0 ? 0.5 : 0) }
        return (shuffled, widths)
    }

    static let cases: [(parents: [Int?], widths: [Double])] = {
        var random = Random(state: 20_251_130)
        var found: [(parents: [Int?], widths: [Double])] = []
        for size in 1...30 {
            for _ in 0..<12 { found.append(randomTree(&random, size: size)) }
        }
        return found
    }()

    @Test func randomTreesAreTidy() {
        for (parents, widths) in Self.cases {
            let layout = TreeLayout(parents: parents, widths: widths, boxHeight: 40)
            expectTidy(layout, parents: parents, widths: widths)
        }
    }

    @Test func randomTreesAreTidyAsOutlines() {
        for (parents, widths) in Self.cases {
            let layout = TreeLayout.outline(parents: parents, widths: widths, boxHeight: 40)
            expectTidy(layout, parents: parents, widths: widths)
        }
    }

    func expectTidy(_ layout: TreeLayout, parents: [Int?], widths: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        let boxes = layout.boxes
        #expect(boxes.count == parents.count, sourceLocation: sourceLocation)
        // Every box whole, at its width, inside the drawing.
        for (index, box) in boxes.enumerated() {
            #expect(box.width == widths[index] && box.x >= 0 && box.y >= 0, sourceLocation: sourceLocation)
            #expect(box.x + box.width <= layout.width + 1e-9 && box.bottom <= layout.height + 1e-9, sourceLocation: sourceLocation)
        }
        // No two boxes overlap.
        for a in boxes.indices {
            for b in boxes.indices where a < b {
                let apart = boxes[a].x + boxes[a].width <= boxes[b].x || boxes[b].x + boxes[b].width <= boxes[a].x
                    || boxes[a].bottom <= boxes[b].y || boxes[b].bottom <= boxes[a].y
                #expect(apart, "boxes \(a) and \(b) overlap in \(parents)", sourceLocation: sourceLocation)
                if !apart { return }
            }
        }
        // Every edge joins a parent to its child, and every child has its edge; the parent
        // stands above.
        let expected = parents.enumerated().compactMap { child, parent in parent.map { "\($0)>\(child)" } }.sorted()
        #expect(layout.edges.map { "\($0.parent)>\($0.child)" }.sorted() == expected, sourceLocation: sourceLocation)
        for edge in layout.edges {
            #expect(boxes[edge.parent].bottom < boxes[edge.child].y, sourceLocation: sourceLocation)
            let points = layout.edgePoints(edge)
            // It starts on the parent and ends on the child.
            #expect(touches(points.first!, boxes[edge.parent]) && touches(points.last!, boxes[edge.child]), sourceLocation: sourceLocation)
        }
        // No edge runs through a box other than its own two, and no two edges cross.
        let segments = layout.edges.map { edge in
            (edge: edge, parts: zip(layout.edgePoints(edge), layout.edgePoints(edge).dropFirst()).map { ($0, $1) })
        }
        for item in segments {
            for (index, box) in boxes.enumerated() where index != item.edge.parent && index != item.edge.child {
                for part in item.parts where crossesInside(part, box) {
                    Issue.record("the edge \(item.edge.parent)>\(item.edge.child) runs through box \(index) in \(parents)", sourceLocation: sourceLocation)
                    return
                }
            }
        }
        for a in segments.indices {
            for b in segments.indices where a < b {
                let first = segments[a], second = segments[b]
                // Edges of one parent share its point (or its spine): they meet, never cross.
                if first.edge.parent == second.edge.parent { continue }
                for p in first.parts {
                    for q in second.parts where properlyCross(p, q) || (shareMoreThanAnEnd(p, q, first.edge, second.edge)) {
                        Issue.record("edges \(first.edge.parent)>\(first.edge.child) and \(second.edge.parent)>\(second.edge.child) cross in \(parents)", sourceLocation: sourceLocation)
                        return
                    }
                }
            }
        }
    }

    typealias Point = (x: Double, y: Double)

    func touches(_ point: Point, _ box: TreeLayout.Box) -> Bool {
        point.x >= box.x - 1e-9 && point.x <= box.x + box.width + 1e-9 && point.y >= box.y - 1e-9 && point.y <= box.bottom + 1e-9
    }

    /// Whether a segment passes through the inside of a box.
    func crossesInside(_ segment: (Point, Point), _ box: TreeLayout.Box) -> Bool {
        // Sample along the segment: boxes are axis-aligned and segments short.
        for step in 0...64 {
            let t = Double(step) / 64
            let x = segment.0.x + (segment.1.x - segment.0.x) * t, y = segment.0.y + (segment.1.y - segment.0.y) * t
            if x > box.x + 0.01, x < box.x + box.width - 0.01, y > box.y + 0.01, y < box.bottom - 0.01 { return true }
        }
        return false
    }

    func orientation(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Two segments cross at a point inside both.
    func properlyCross(_ p: (Point, Point), _ q: (Point, Point)) -> Bool {
        let d1 = orientation(q.0, q.1, p.0), d2 = orientation(q.0, q.1, p.1)
        let d3 = orientation(p.0, p.1, q.0), d4 = orientation(p.0, p.1, q.1)
        return ((d1 > 1e-9 && d2 < -1e-9) || (d1 < -1e-9 && d2 > 1e-9)) && ((d3 > 1e-9 && d4 < -1e-9) || (d3 < -1e-9 && d4 > 1e-9))
    }

    /// Two segments of edges of different parents that touch anywhere but where one edge's
    /// child is the other's parent (an edge ends on the child's box; the next begins below it).
    func shareMoreThanAnEnd(_ p: (Point, Point), _ q: (Point, Point), _ e: (parent: Int, child: Int), _ f: (parent: Int, child: Int)) -> Bool {
        if e.child == f.parent || f.child == e.parent { return false }
        for point in [p.0, p.1] where onSegment(point, q) { return true }
        for point in [q.0, q.1] where onSegment(point, p) { return true }
        return false
    }

    func onSegment(_ point: Point, _ segment: (Point, Point)) -> Bool {
        abs(orientation(segment.0, segment.1, point)) < 1e-6
            && point.x >= min(segment.0.x, segment.1.x) - 1e-9 && point.x <= max(segment.0.x, segment.1.x) + 1e-9
            && point.y >= min(segment.0.y, segment.1.y) - 1e-9 && point.y <= max(segment.0.y, segment.1.y) + 1e-9
    }

    /// The same tree and widths always give the same picture.
    @Test func theLayoutIsDeterministic() {
        for (parents, widths) in Self.cases.prefix(40) {
            #expect(TreeLayout(parents: parents, widths: widths, boxHeight: 40) == TreeLayout(parents: parents, widths: widths, boxHeight: 40))
        }
    }

    /// A parent is centred over its children; siblings keep their written order, left to right.
    @Test func parentsAreCentredAndChildrenKeepTheirOrder() {
        let layout = TreeLayout(parents: [nil, 0, 0, 0], widths: [100, 60, 80, 60], boxHeight: 40)
        let boxes = layout.boxes
        #expect(boxes[1].x < boxes[2].x && boxes[2].x < boxes[3].x)
        #expect(abs(boxes[0].centerX - (boxes[1].centerX + boxes[3].centerX) / 2) < 1e-9)
        #expect(boxes[2].x - (boxes[1].x + boxes[1].width) == 14)
        #expect(layout.width == 60 + 14 + 80 + 14 + 60 + 8)
    }

    /// An outline reads as the tree is written: a parent, then each child in order with its
    /// own children, each level indented.
    @Test func anOutlineFollowsTheWrittenOrder() {
        // 0 ─ 1 ─ 3
        //   └ 2
        let layout = TreeLayout.outline(parents: [nil, 0, 0, 1], widths: [80, 80, 80, 80], boxHeight: 40)
        let rows = layout.boxes.map(\.y)
        #expect(rows[0] < rows[1] && rows[1] < rows[3] && rows[3] < rows[2])
        #expect(layout.boxes.map(\.x) == [4, 26, 26, 48])
    }
}
