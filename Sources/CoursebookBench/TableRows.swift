import Foundation

// MARK: The rows of the table

func megabytes(_ kilobytes: Int) -> String { String(format: "%.0f MB", Double(kilobytes) / 1024) }

func ratios(_ values: [Double]) -> String { values.map { String(format: "%.2f×", $0) }.joined(separator: ", ") }

/// The cold check against its floor, A B A B A B: wall and CPU; `what` names the kind of cold.
func coldRows(_ turns: Turns, what: String) -> [Row] {
    [Row(what: "  \(what), wall", value: turns.checkWall.map(seconds).joined(separator: ", "),
         against: "floor " + turns.floorWall.map(seconds).joined(separator: ", ") + " (one batched swiftc -j2, in turn)",
         target: String(format: "≤ 1.2 × floor (%.2f×: %@)", turns.wallRatio, ratios(turns.wallRatios)),
         met: turns.wallRatio <= 1.2),
     Row(what: "  \(what), CPU", value: turns.checkCPU.map(seconds).joined(separator: ", "),
         against: "floor " + turns.floorCPU.map(seconds).joined(separator: ", "),
         target: String(format: "≤ 1.3 × floor (%.2f×: %@)", turns.cpuRatio, ratios(turns.cpuRatios)),
         met: turns.cpuRatio <= 1.3),
     Row(what: "  \(what), tree memory", value: megabytes(turns.checkTreePeak),
         against: "floor " + megabytes(turns.floorTreePeak), target: "", met: nil)]
}

/// A corpus's check rows: cold against the floor, one by one, warm, one edited scenario.
func checkRows(_ result: CheckMeasured) -> [Row] {
    let large = result.lessons >= 1000
    var rows = [Row(what: "\(result.lessons) lessons, \(result.scenarios) scenarios", value: "", against: "", target: "", met: nil)]
    rows += coldRows(result.turns, what: "cold check (--no-cache)")
    rows += coldRows(result.restored, what: "cold, Swift readings restored")
    if let nothingCached = result.nothingCached { rows += coldRows(nothingCached, what: "cold, nothing cached (new machine)") }
    rows.append(Row(what: "", value: "", against: String(format: "one by one: %@ × %d = %@", seconds(result.perScenario),
                                                        result.scenarios, seconds(result.perScenario * Double(result.scenarios))),
                    target: "", met: nil))
    rows.append(Row(what: "  warm check (nothing changed)", value: seconds(result.warm), against: "",
                    target: large ? "≤ 0.6 s" : "≤ 0.1 s", met: result.warm <= (large ? 0.6 : 0.1)))
    rows.append(Row(what: "  one edited scenario", value: seconds(result.oneEdit), against: "",
                    target: large ? "" : "≤ 0.6 s", met: large ? nil : result.oneEdit <= 0.6))
    return rows
}

/// A corpus's rows: the check's, then the builds as users run them, beside hugo and MkDocs.
func corpusRows(_ result: Measured) -> [Row] {
    let large = result.lessons >= 1000
    var rows = checkRows(result.checks)
    rows += buildRows(result)
    return rows
}

/// The deeply nested lessons: the check and the build without search against cmark-gfm (a
/// walk that is not linear shows there), the build with search against its own limit.
func nestingRows(_ nesting: [Nesting], ratio: Double) -> [Row] {
    guard !nesting.isEmpty else { return [] }
    var rows = [Row(what: "Nesting (one lesson, --no-cache)", value: "", against: "", target: "", met: nil)]
    for result in nesting {
        rows.append(Row(what: "  " + result.name, value: "", against: "cmark-gfm \(seconds(result.cmark)) (parse and render)",
                        target: "", met: nil))
        for (what, time) in [("check", result.check), ("build, no search (no user runs this)", result.buildWithoutSearch)] {
            rows.append(Row(what: "    " + what, value: seconds(time), against: "",
                            target: String(format: "< 1 s, ≤ %.0f × cmark-gfm (%.1f×)", ratio, time / result.cmark),
                            met: time < 1 && time <= ratio * result.cmark))
        }
        rows.append(Row(what: "    build", value: seconds(result.build), against: "tree \(megabytes(result.buildTreePeakKilobytes))",
                        target: "≤ 5 s", met: result.build <= 5))
    }
    return rows
}

/// The builds as users run them, beside hugo (and MkDocs when it was measured), and the tree's
/// memory.
func buildRows(_ result: Measured) -> [Row] {
    let large = result.lessons >= 1000
    var rows: [Row] = []
    let hugo = "hugo \(seconds(result.hugo)) (no search)"
    rows.append(Row(what: "  first build after the check", value: seconds(result.firstBuild.seconds), against: hugo,
                    target: large ? "" : "≤ hugo", met: large ? nil : result.firstBuild.seconds <= result.hugo))
    rows.append(Row(what: "  build with nothing changed", value: seconds(result.rebuild.seconds),
                    against: hugo + (result.rebuild.indexed ? ", Pagefind ran" : ", index reused"),
                    target: String(format: "≤ hugo / 5 (%.2f×)", result.rebuild.seconds / result.hugo),
                    met: result.rebuild.seconds <= result.hugo / 5))
    rows.append(Row(what: "  one edited lesson (prose)", value: seconds(result.editedLesson.seconds), against: hugo,
                    target: large ? "" : "≤ hugo", met: large ? nil : result.editedLesson.seconds <= result.hugo))
    if let mkdocs = result.mkdocs {
        rows.append(Row(what: "  MkDocs Material (search plugin)", value: "", against: "mkdocs build \(seconds(mkdocs.seconds)), tree \(megabytes(mkdocs.treePeakKilobytes))",
                        target: String(format: "first build / mkdocs: %.2f×", result.firstBuild.seconds / mkdocs.seconds), met: nil))
    } else if !options.siteOnly {
        rows.append(Row(what: "  MkDocs Material", value: "", against: "not measured: \(mkdocs.reason)", target: "", met: nil))
    }
    rows.append(Row(what: options.siteOnly ? "  tree memory, builds" : "  tree memory, builds and warm check", value: String(format: "%.0f MB", result.buildTreePeakMegabytes),
                    against: "coursebook + Pagefind", target: large ? "≤ 300 MB" : "",
                    met: large ? result.buildTreePeakMegabytes <= 300 : nil))
    rows.append(Row(what: "  nothing changed, no search", value: seconds(result.rebuildWithoutSearch),
                    against: "(no user runs this)", target: "", met: nil))
    return rows
}

/// A corpus's rows in `--site-only`: the builds alone.
func siteOnlyRows(_ result: Measured) -> [Row] {
    [Row(what: "\(result.lessons) lessons (builds only)", value: "", against: "", target: "", met: nil)] + buildRows(result)
}
