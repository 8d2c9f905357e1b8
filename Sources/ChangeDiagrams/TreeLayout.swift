/// A tidy drawing of a tree (or a forest), parents above their children: every view a box of
/// its own width on the row of its depth, children left to right in the order they are
/// written, each parent centred over its children, each subtree pushed right only as far as it
/// must go to clear, at every depth, the subtrees already placed on its left. Deterministic:
/// the same tree and widths always give the same picture.
///
/// Because a subtree never reaches into the columns of its left neighbour at any depth, the
/// rows keep the order of their subtrees, so boxes never overlap and the straight edges
/// between two rows never cross; and since an edge only spans the gap between a parent's row
/// and the next, it never runs through a box.
struct TreeLayout: Equatable {
    /// A box, from its top left corner.
    struct Box: Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        var centerX: Double { x + width / 2 }
        var bottom: Double { y + height }
    }

    /// One box per view, in the order of the views.
    var boxes: [Box]
    /// Parent and child, by view index, in the order of the children.
    var edges: [(parent: Int, child: Int)]
    var width: Double
    var height: Double

    struct Spacing {
        /// Between two boxes of one row.
        var sibling: Double = 14
        /// Between two rows.
        var row: Double = 26
        /// Around the drawing.
        var margin: Double = 4
    }

    /// - Parameters:
    ///   - parents: each view's parent index, nil for a root.
    ///   - widths: each view's box width.
    ///   - boxHeight: the height of every box.
    init(parents: [Int?], widths: [Double], boxHeight: Double, spacing: Spacing = Spacing()) {
        precondition(parents.count == widths.count)
        var children = [[Int]](repeating: [], count: parents.count)
        var roots: [Int] = []
        for (index, parent) in parents.enumerated() {
            if let parent { children[parent].append(index) } else { roots.append(index) }
        }

        // Each subtree: the centre of every box relative to the subtree's root, and its
        // outline (leftmost and rightmost extent at each depth below the root).
        struct Subtree {
            var centers: [(view: Int, x: Double, depth: Int)]
            var outline: [(left: Double, right: Double)]
        }
        func place(_ view: Int) -> Subtree {
            let half = widths[view] / 2
            let below = row(children[view].map(place))
            var centers = [(view, 0.0, 0)]
            var outline = [(-half, half)]
            for center in below.centers { centers.append((center.view, center.x, center.depth + 1)) }
            outline += below.outline
            return Subtree(centers: centers, outline: outline)
        }
        /// Subtrees side by side, as close as they may come, centred on 0 (the midpoint of the
        /// first and the last subtree's roots).
        func row(_ subtrees: [Subtree]) -> Subtree {
            guard var placed = subtrees.first else { return Subtree(centers: [], outline: []) }
            var rootCenters = [0.0]
            for next in subtrees.dropFirst() {
                var offset = -Double.infinity
                for depth in 0..<min(placed.outline.count, next.outline.count) {
                    offset = max(offset, placed.outline[depth].right + spacing.sibling - next.outline[depth].left)
                }
                rootCenters.append(offset)
                placed.centers += next.centers.map { ($0.view, $0.x + offset, $0.depth) }
                for depth in next.outline.indices {
                    let left = next.outline[depth].left + offset, right = next.outline[depth].right + offset
                    if depth < placed.outline.count {
                        placed.outline[depth] = (min(placed.outline[depth].left, left), max(placed.outline[depth].right, right))
                    } else {
                        placed.outline.append((left, right))
                    }
                }
            }
            let middle = (rootCenters.first! + rootCenters.last!) / 2
            placed.centers = placed.centers.map { ($0.view, $0.x - middle, $0.depth) }
            placed.outline = placed.outline.map { ($0.left - middle, $0.right - middle) }
            return placed
        }

        let forest = row(roots.map(place))
        let left = forest.outline.map(\.left).min() ?? 0
        let right = forest.outline.map(\.right).max() ?? 0
        var boxes = [Box](repeating: Box(x: 0, y: 0, width: 0, height: boxHeight), count: parents.count)
        for center in forest.centers {
            boxes[center.view] = Box(x: spacing.margin + center.x - left - widths[center.view] / 2,
                                     y: spacing.margin + Double(center.depth) * (boxHeight + spacing.row),
                                     width: widths[center.view], height: boxHeight)
        }
        self.boxes = boxes
        edges = children.enumerated().flatMap { parent, kids in kids.map { (parent, $0) } }
        width = (right - left) + 2 * spacing.margin
        let depth = forest.outline.count
        height = Double(depth) * boxHeight + Double(max(depth - 1, 0)) * spacing.row + 2 * spacing.margin
    }

    /// The same tree as an outline, for a page too narrow for the tidy drawing: one view a
    /// row, in the order of a walk from each root (a parent, then each of its children with
    /// theirs), each child indented under its parent, joined to it by an elbow from the
    /// parent's spine. Parents still stand above their children, and nothing overlaps: a row
    /// holds one box, and a spine runs left of every box it passes.
    static func outline(parents: [Int?], widths: [Double], boxHeight: Double, indent: Double = 22,
                        rowGap: Double = 8, margin: Double = 4) -> TreeLayout {
        var children = [[Int]](repeating: [], count: parents.count)
        var roots: [Int] = []
        for (index, parent) in parents.enumerated() {
            if let parent { children[parent].append(index) } else { roots.append(index) }
        }
        var boxes = [Box](repeating: Box(x: 0, y: 0, width: 0, height: boxHeight), count: parents.count)
        var row = 0
        var right = 0.0
        var pending = roots.reversed().map { ($0, 0) }
        while let (view, depth) = pending.popLast() {
            boxes[view] = Box(x: margin + Double(depth) * indent, y: margin + Double(row) * (boxHeight + rowGap),
                              width: widths[view], height: boxHeight)
            right = max(right, boxes[view].x + widths[view])
            row += 1
            pending += children[view].reversed().map { ($0, depth + 1) }
        }
        var layout = TreeLayout(parents: [], widths: [], boxHeight: boxHeight)
        layout.boxes = boxes
        layout.edges = children.enumerated().flatMap { parent, kids in kids.map { (parent, $0) } }
        layout.width = right + margin
        layout.height = row == 0 ? 2 * margin : Double(row) * boxHeight + Double(row - 1) * rowGap + 2 * margin
        layout.isOutline = true
        layout.spineOffset = indent / 2
        return layout
    }

    /// Whether this is an outline (edges are elbows down a spine) rather than a tidy drawing
    /// (edges are straight lines between rows).
    var isOutline = false
    /// In an outline, how far right of its parent's left edge a spine runs.
    var spineOffset = 0.0

    /// The edge from a parent to a child: a straight line from the middle of the parent's
    /// bottom to the middle of the child's top; in an outline, down the parent's spine and
    /// right to the child's left side.
    func edgePoints(_ edge: (parent: Int, child: Int)) -> [(x: Double, y: Double)] {
        let from = boxes[edge.parent], to = boxes[edge.child]
        if isOutline {
            let spine = from.x + spineOffset
            return [(spine, from.bottom), (spine, to.y + to.height / 2), (to.x, to.y + to.height / 2)]
        }
        return [(from.centerX, from.bottom), (to.centerX, to.y)]
    }

    static func == (lhs: TreeLayout, rhs: TreeLayout) -> Bool {
        lhs.boxes == rhs.boxes && lhs.width == rhs.width && lhs.height == rhs.height && lhs.isOutline == rhs.isOutline
            && lhs.edges.map(\.parent) == rhs.edges.map(\.parent) && lhs.edges.map(\.child) == rhs.edges.map(\.child)
    }
}
