import CourseModel
import Foundation
import HTMLText

/// A scenario's change diagrams as HTML with inline SVG: one small picture per change line of
/// its output, the tree drawn the same way in each (so the pictures compare at a glance), side
/// by side where the page is wide enough; above them what the pictures show, and a legend of
/// the causes they use.
///
/// In a picture every view is a box, parents above children. A view that recomputed is filled
/// in its cause's colour, carries the cause's mark and has the cause written under its name, so
/// colour is never the only signal; a skipped view is a plain dashed box. Each picture says the
/// same in words to assistive technology (`role="img"`, `aria-label`; no `<title>` beside it,
/// which a screen reader would read a second time as the description and which cost a lesson
/// page a tenth of its diagrams' bytes). Colours come from the stylesheet (light, dark, print),
/// with the light ones written on the elements too, so that a picture reads without it; what
/// every name shares (font, size, centring) is written once on the picture and inherited.
package enum ChangeDiagramDrawing {
    /// The causes the classifier knows, in the order a legend lists them.
    static let causes = ["yerel", "ebeveyn", "gozlem", "ortam", "kural-disi", "olcum-disi"]

    /// Light colours, written on the elements: fill and the strong colour of marks and borders.
    static let colours: [String: (fill: String, strong: String)] = [
        "yerel": ("#dcebf7", "#1d5f8a"),
        "ebeveyn": ("#fbe3c8", "#9a4d00"),
        "gozlem": ("#ebdff7", "#6b3fa0"),
        "ortam": ("#d7efe0", "#1f6b33"),
        "kural-disi": ("#f7d9d9", "#a12b2b"),
        "olcum-disi": ("#e6e6e3", "#55595f"),
    ]
    static let otherColour = (fill: "#eeeeee", strong: "#444444")
    static let ink = "#1d2126", muted = "#5b6169", rule = "#80878f"

    // Sizes, in CSS pixels of the picture at its natural size.
    static let nameSize = 12.5, causeSize = 12.0
    static let boxHeight = 40.0
    static let padding = 9.0, markSize = 12.0, markGap = 4.0
    /// How far a picture may shrink on a narrow page: its smallest text (a cause) never below
    /// 11 px. A picture that would have to shrink more is drawn as an outline instead.
    static let smallestScale = 11.0 / causeSize
    /// The width of a 360 px phone's column for pictures: a tidy drawing that cannot shrink
    /// into it is drawn as an outline too, which a phone shows instead.
    static let phoneColumn = 300.0
    /// Between two pictures of a row, as the stylesheet has it (1.25rem).
    static let columnGap = 20.0
    /// A row whose container is at least this wide (a tablet's column, a page on paper, not a
    /// phone's) wants its pictures two or three abreast: outlines, when two tidy drawings do
    /// not fit. The stylesheet knows the same widths (`data-pair`).
    static let pairedFrom = 560.0, pairStep = 40.0

    /// A picture as the page shows it: a change, and the labels of the identical changes right
    /// after it that it stands for (drawn once, with their count).
    struct Picture {
        var diagram: ChangeDiagram
        var labels: [String]
    }

    /// The HTML of one scenario's diagrams; empty for none. The pictures are grouped by the
    /// output's sections (`-- title --` lines) or, without them, by tree when the scenario has
    /// several, each group under its title; a run of identical pictures is drawn once.
    package static func html(_ diagrams: [ChangeDiagram], words: DiagramWords) -> String {
        guard !diagrams.isEmpty else { return "" }
        var html = "<div class=\"diagrams\" data-pagefind-ignore>\n<p class=\"diagrams-title\">\(escapeHTML(words.title))</p>\n"
        html += legend(diagrams, words: words)
        // Every picture of one tree is laid out the same: once.
        var laidOut: [(tree: WrittenTree, tidy: TreeLayout, outline: TreeLayout)] = []
        func layouts(of tree: WrittenTree) -> (tidy: TreeLayout, outline: TreeLayout) {
            if let known = laidOut.first(where: { $0.tree == tree }) { return (known.tidy, known.outline) }
            let made = (tree: tree, tidy: layout(tree), outline: layout(tree, outline: true))
            laidOut.append(made)
            return (made.tidy, made.outline)
        }
        for group in groups(diagrams) {
            let tidy = group.pictures.map { layouts(of: $0.diagram.tree).tidy.width }.max() ?? 0
            let outline = group.pictures.map { layouts(of: $0.diagram.tree).outline.width }.max() ?? 0
            let scaledTidy = (tidy * smallestScale).rounded(.up), scaledOutline = (outline * smallestScale).rounded(.up)
            // Where two tidy drawings stand side by side; below that (and from `pairedFrom`) the
            // row shows outlines, two or three abreast.
            let pairWidth = ((2 * scaledTidy + columnGap) / pairStep).rounded(.up) * pairStep
            let paired = group.pictures.count > 1 && pairWidth > pairedFrom
            let alone = scaledTidy > phoneColumn
            var row = "<div class=\"diagram-row\(alone ? " wide" : "")\""
            if paired { row += " data-pair=\"\(number(pairWidth))\"" }
            row += " style=\"--tidy:\(number(scaledTidy))px;--outline:\(number(scaledOutline))px\">\n"
            for picture in group.pictures {
                let forms = layouts(of: picture.diagram.tree)
                row += figure(picture, group: group.title, layout: forms.tidy,
                              outline: alone || paired ? forms.outline : nil, words: words)
            }
            row += "</div>\n"
            if let title = group.title {
                html += "<div class=\"diagram-group\" role=\"group\" aria-label=\"\(escapeHTML(title))\">\n<p class=\"diagram-group-title\">\(escapeHTML(title))</p>\n\(row)</div>\n"
            } else {
                html += "<div class=\"diagram-group\">\n\(row)</div>\n"
            }
        }
        return html + "</div>\n"
    }

    /// The pictures in groups: by the output's sections where it has them, by tree when the
    /// scenario measured several (named as the scenario binds them), else one group without a
    /// title. Within a group, a picture identical to the one before it (the same tree and the
    /// same change, whatever its label) is drawn once, with its count.
    static func groups(_ diagrams: [ChangeDiagram]) -> [(title: String?, pictures: [Picture])] {
        var trees: [WrittenTree] = []
        for diagram in diagrams where !trees.contains(diagram.tree) { trees.append(diagram.tree) }
        func title(_ diagram: ChangeDiagram) -> String? {
            diagram.section ?? (trees.count > 1 ? diagram.tree.binding : nil)
        }
        var groups: [(title: String?, pictures: [Picture])] = []
        for diagram in diagrams {
            let name = title(diagram)
            if groups.isEmpty || groups[groups.count - 1].title != name || (name == nil && groups[groups.count - 1].pictures.last?.diagram.tree != diagram.tree) {
                groups.append((name, []))
            }
            let last = groups.count - 1
            if let previous = groups[last].pictures.last, sameDrawing(previous.diagram, diagram) {
                groups[last].pictures[groups[last].pictures.count - 1].labels.append(diagram.change.label)
            } else {
                groups[last].pictures.append(Picture(diagram: diagram, labels: [diagram.change.label]))
            }
        }
        return groups
    }

    /// Whether two changes draw the same picture and caption but for their labels.
    static func sameDrawing(_ one: ChangeDiagram, _ other: ChangeDiagram) -> Bool {
        one.tree == other.tree && one.change.key == other.change.key && one.change.recomputed == other.change.recomputed
            && one.change.skipped == other.change.skipped
    }

    /// The layout of a tree, boxes sized so that every name fits whole: tidy, or as an outline.
    static func layout(_ tree: WrittenTree, outline: Bool = false) -> TreeLayout {
        let widestCause = causes.map { textWidth($0, size: causeSize) }.max() ?? 0
        let widths = tree.views.map { view in
            (2 * padding + max(textWidth(view.name, size: nameSize), markSize + markGap + widestCause)).rounded(.up)
        }
        return outline ? TreeLayout.outline(parents: tree.parentIndices, widths: widths, boxHeight: boxHeight)
            : TreeLayout(parents: tree.parentIndices, widths: widths, boxHeight: boxHeight)
    }

    /// The width text takes in the pictures' monospaced font: a column per character (two for
    /// the wide ones of East Asian scripts and emoji, none for combining marks), at a little
    /// more than the 0.6 em most monospaced fonts advance, so that a name is never cut.
    static func textWidth(_ text: String, size: Double) -> Double {
        var columns = 0
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            columns += isWide(scalar) ? 2 : 1
        }
        return Double(columns) * size * 0.62
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return scalar.properties.isEmojiPresentation
        }
    }

    // MARK: One picture

    /// One change: the tidy drawing, and, where the row may need it, the outline that a phone
    /// or a row of two or three shows instead (the stylesheet chooses), then the caption.
    static func figure(_ picture: Picture, group: String?, layout: TreeLayout, outline: TreeLayout?, words: DiagramWords) -> String {
        let diagram = picture.diagram
        let label = description(diagram, labels: picture.labels, group: group, words: words)
        var pictures = frame(svg(diagram, layout: layout, label: label, kind: "tree-view"), layout: layout, column: 680)
        if let outline {
            pictures += frame(svg(diagram, layout: outline, label: label, kind: "outline-view"), layout: outline, column: phoneColumn)
        }
        return """
            <figure class="diagram">
            \(pictures)<figcaption>\(caption(diagram, labels: picture.labels, words: words))</figcaption>
            </figure>

            """
    }

    /// A picture in its frame, which scrolls sideways (and the keyboard can reach it) when the
    /// picture cannot shrink to the width of the column it is shown in.
    private static func frame(_ svg: String, layout: TreeLayout, column: Double) -> String {
        let focus = layout.width * smallestScale > column ? " tabindex=\"0\"" : ""
        return "<div class=\"diagram-frame\"\(focus)>\(svg)</div>\n"
    }

    static func svg(_ diagram: ChangeDiagram, layout: TreeLayout, label: String, kind: String) -> String {
        // Whole pixels: HTML's width and height take no fractions.
        let width = number(layout.width.rounded(.up)), height = number(layout.height.rounded(.up))
        let smallest = min((layout.width * smallestScale).rounded(.up), layout.width.rounded(.up))
        // The font as a presentation attribute of one group (HTML's validators know none on
        // `<svg>` itself): the stylesheet's `--mono` wins over it where the stylesheet is loaded,
        // plain monospace where it is not. Names inherit their size and centring from it.
        var svg = "<svg class=\"\(kind)\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(escapeHTML(label))\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" style=\"min-width:\(number(smallest))px\">\n<g font-family=\"monospace\" font-size=\"\(number(nameSize))\" text-anchor=\"middle\">\n"
        if !layout.edges.isEmpty {
            let path = layout.edges.map { edge in
                let points = layout.edgePoints(edge)
                return "M" + points.map { "\(number($0.x)) \(number($0.y))" }.joined(separator: "L")
            }.joined()
            svg += "<path class=\"edge\" d=\"\(path)\" fill=\"none\" stroke=\"\(rule)\" stroke-width=\"1.25\"></path>\n"
        }
        var causeOf: [String: String] = [:]
        for view in diagram.change.recomputed { causeOf[view.view] = view.cause }
        for (index, view) in diagram.tree.views.enumerated() {
            svg += box(view.name, cause: causeOf[view.name], at: layout.boxes[index])
        }
        return svg + "</g>\n</svg>"
    }

    /// A view's box: filled, marked and labelled with its cause when it recomputed, plain and
    /// dashed when it was skipped. The name is centred; under it, the cause's mark and word.
    static func box(_ name: String, cause: String?, at box: TreeLayout.Box) -> String {
        let x = box.x, y = box.y
        let rect = "x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"6\""
        guard let cause else {
            return """
                <g class="view skipped"><rect \(rect) fill="none" stroke="\(rule)" stroke-dasharray="4 3"></rect><text x="\(number(box.centerX))" y="\(number(y + 24.5))" fill="\(muted)">\(escapeHTML(name))</text></g>

                """
        }
        let known = colours[cause]
        let colour = known ?? otherColour
        let kind = known == nil ? "cause-other" : "cause-\(cause)"
        let causeWidth = textWidth(cause, size: causeSize)
        let markX = (box.centerX - (markSize + markGap + causeWidth) / 2).rounded()
        return """
            <g class="view recomputed \(kind)"><rect \(rect) fill="\(colour.fill)" stroke="\(colour.strong)" stroke-width="1.5"></rect><text x="\(number(box.centerX))" y="\(number(y + 17))" font-weight="700" fill="\(ink)">\(escapeHTML(name))</text>\(mark(cause, x: markX, y: y + 23, size: markSize, colour: colour.strong))<text class="cause" x="\(number(markX + markSize + markGap))" y="\(number(y + 33))" text-anchor="start" font-size="\(number(causeSize))" fill="\(ink)">\(escapeHTML(cause))</text></g>

            """
    }

    /// Each cause's mark, in a square of `size` from (x, y), so that the causes differ in shape
    /// as well as colour: its own state a full dot, a parent's an arrow down from above, an
    /// observed property an eye, the environment the lines of a level, a read against the rules
    /// a cross, a key outside the measurement a dashed ring; another core's cause a square.
    static func mark(_ cause: String, x: Double, y: Double, size: Double, colour: String) -> String {
        let unit = size / 14
        func at(_ dx: Double, _ dy: Double) -> String { "\(number(x + dx * unit)) \(number(y + dy * unit))" }
        func length(_ value: Double) -> String { number(value * unit) }
        let solid = "class=\"mark\" fill=\"\(colour)\""
        let line = "class=\"mark-line\" fill=\"none\" stroke=\"\(colour)\""
        let center = "cx=\"\(number(x + 7 * unit))\" cy=\"\(number(y + 7 * unit))\""
        switch cause {
        case "yerel":
            return "<circle \(solid) \(center) r=\"\(length(6))\"></circle>"
        case "ebeveyn":
            return "<path \(solid) d=\"M\(at(0.5, 1.5))L\(at(13.5, 1.5))L\(at(7, 13.5))Z\"></path>"
        case "gozlem":
            return "<path \(line) stroke-width=\"1.5\" d=\"M\(at(0.5, 7))Q\(at(7, -1)) \(at(13.5, 7))Q\(at(7, 15)) \(at(0.5, 7))Z\"></path><circle \(solid) \(center) r=\"\(length(2.5))\"></circle>"
        case "ortam":
            return "<path \(line) stroke-width=\"2\" d=\"M\(at(0.5, 2))L\(at(13.5, 2))M\(at(0.5, 7))L\(at(13.5, 7))M\(at(0.5, 12))L\(at(13.5, 12))\"></path>"
        case "kural-disi":
            return "<path \(line) stroke-width=\"2.5\" d=\"M\(at(1.5, 1.5))L\(at(12.5, 12.5))M\(at(12.5, 1.5))L\(at(1.5, 12.5))\"></path>"
        case "olcum-disi":
            return "<circle \(line) stroke-width=\"2\" stroke-dasharray=\"3 2\" \(center) r=\"\(length(5.5))\"></circle>"
        default:
            return "<rect \(line) stroke-width=\"2\" x=\"\(number(x + 1.5 * unit))\" y=\"\(number(y + 1.5 * unit))\" width=\"\(length(11))\" height=\"\(length(11))\"></rect>"
        }
    }

    // MARK: Words

    /// `label: key changed` (`×2 label, label: key changed` for a picture that stands for two
    /// changes), and where the key is stored.
    static func caption(_ diagram: ChangeDiagram, labels: [String]? = nil, words: DiagramWords) -> String {
        let change = diagram.change
        let labels = labels ?? [change.label]
        let named = labels.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: ", ")
        var text = labels.count > 1 ? "<span class=\"repeat\">×\(labels.count)</span> " : ""
        text += escapeHTML(words.changed)
            .replacingOccurrences(of: "{label}", with: named)
            .replacingOccurrences(of: "{key}", with: "<code>\(escapeHTML(change.key))</code>")
        text += " <span class=\"storage\">\(storage(of: change.key, in: diagram.tree, words: words, html: true))</span>"
        return text
    }

    static func storage(of key: String, in tree: WrittenTree, words: DiagramWords, html: Bool) -> String {
        let show: (String) -> String = { html ? "<code>\(escapeHTML($0))</code>" : $0 }
        let escape: (String) -> String = { html ? escapeHTML($0) : $0 }
        switch tree.storage(of: key) {
        case .state(let owner): return escape(words.stateOf).replacingOccurrences(of: "{owner}", with: show(owner))
        case .model(let object): return escape(words.modelOf).replacingOccurrences(of: "{object}", with: show(object))
        case .environment: return escape(words.environment)
        case nil: return escape(words.noStorage)
        }
    }

    /// The picture in words: what changed, what recomputed and why, what was skipped, and
    /// the tree a parent at a time.
    static func description(_ diagram: ChangeDiagram, labels: [String]? = nil, group: String? = nil, words: DiagramWords) -> String {
        let change = diagram.change, tree = diagram.tree
        let labels = labels ?? [change.label]
        var named = labels.joined(separator: ", ")
        if labels.count > 1 { named = words.times.replacingOccurrences(of: "{count}", with: String(labels.count)) + ": " + named }
        var parts = [(group.map { "\($0) — " } ?? "") + words.changed.replacingOccurrences(of: "{label}", with: named)
            .replacingOccurrences(of: "{key}", with: change.key) + " (" + storage(of: change.key, in: tree, words: words, html: false) + ")."]
        let recomputed = change.recomputed.map { "\($0.view) (\($0.cause))" }
        parts.append(words.recomputed.replacingOccurrences(of: "{views}", with: recomputed.isEmpty ? words.none : recomputed.joined(separator: ", ")))
        parts.append(words.skipped.replacingOccurrences(of: "{views}", with: change.skipped.isEmpty ? words.none : change.skipped.joined(separator: ", ")))
        let parents = tree.parentIndices
        var families: [String] = []
        for (index, view) in tree.views.enumerated() {
            let children = tree.views.indices.filter { parents[$0] == index }.map { tree.views[$0].name }
            guard !children.isEmpty else { continue }
            families.append(words.under.replacingOccurrences(of: "{parent}", with: view.name)
                .replacingOccurrences(of: "{children}", with: children.joined(separator: ", ")))
        }
        if !families.isEmpty { parts.append(words.tree.replacingOccurrences(of: "{parents}", with: families.joined(separator: "; "))) }
        return parts.joined(separator: " ")
    }

    /// The causes the scenario's pictures use, each with its mark and meaning, and the plain
    /// box of a skipped view.
    static func legend(_ diagrams: [ChangeDiagram], words: DiagramWords) -> String {
        let used = Set(diagrams.flatMap { $0.change.recomputed.map(\.cause) })
        let others = used.subtracting(causes).sorted()
        var html = "<ul class=\"diagram-legend\">\n"
        for cause in causes.filter(used.contains) + others {
            let colour = colours[cause] ?? otherColour
            let kind = colours[cause] == nil ? "cause-other" : "cause-\(cause)"
            html += "<li><svg class=\"swatch\" width=\"22\" height=\"18\" viewBox=\"0 0 22 18\" aria-hidden=\"true\"><g class=\"view recomputed \(kind)\"><rect x=\"0.75\" y=\"0.75\" width=\"20.5\" height=\"16.5\" rx=\"4\" fill=\"\(colour.fill)\" stroke=\"\(colour.strong)\" stroke-width=\"1.5\"></rect>\(mark(cause, x: 4, y: 2, size: 14, colour: colour.strong))</g></svg> <code>\(escapeHTML(cause))</code> \(escapeHTML(words.causes[cause] ?? ""))</li>\n"
        }
        if diagrams.contains(where: { !$0.change.skipped.isEmpty }) {
            html += "<li><svg class=\"swatch\" width=\"22\" height=\"18\" viewBox=\"0 0 22 18\" aria-hidden=\"true\"><g class=\"view skipped\"><rect x=\"0.5\" y=\"0.5\" width=\"21\" height=\"17\" rx=\"4\" fill=\"none\" stroke=\"\(rule)\" stroke-dasharray=\"4 3\"></rect></g></svg> \(escapeHTML(words.skippedMeaning))</li>\n"
        }
        return html + "</ul>\n"
    }

    /// A coordinate as SVG text: at most two decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        return fraction % 10 == 0 ? "\(sign)\(whole).\(fraction / 10)" : "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
