import Foundation

// MARK: Measuring one corpus

/// The cold check and its floor, timed in turn (A B A B A B): wall and CPU time of each run, and
/// the peak of each side's tree.
struct Turns {
    var floorWall: [Double] = []
    var checkWall: [Double] = []
    var floorCPU: [Double] = []
    var checkCPU: [Double] = []
    var floorTreePeak = 0
    var checkTreePeak = 0

    var wallRatio: Double { checkWall.reduce(0, +) / floorWall.reduce(0, +) }
    var cpuRatio: Double { checkCPU.reduce(0, +) / floorCPU.reduce(0, +) }
    /// Each turn's check over its floor.
    var wallRatios: [Double] { zip(checkWall, floorWall).map { $0 / $1 } }
    var cpuRatios: [Double] { zip(checkCPU, floorCPU).map { $0 / $1 } }
}

/// A build as users run it: with search, Pagefind as `make` installs it.
struct BuildRun {
    var seconds: Double
    var treePeakKilobytes: Int
    /// Pagefind ran (a new index) rather than the index in place being reused.
    var indexed: Bool
}

/// The check's rows of one corpus: cold against the floor, a sample one by one, warm, one
/// edited scenario.
struct CheckMeasured {
    var lessons: Int
    var scenarios: Int
    var turns: Turns
    /// The cold check with the user's Swift readings in place (a CI cache restored).
    var restored: Turns
    /// The cold check on a machine with no cache of coursebook's at all (a CI runner with
    /// nothing restored), its floor with a compiler module cache as new; measured at 100
    /// lessons and fewer, nil at 1000 (what a new machine adds is paid once per compiler, not per
    /// scenario).
    var nothingCached: Turns?
    var perScenario: Double
    var warm: Double
    var warmTreePeak: Int
    var oneEdit: Double
}

struct Measured {
    var checks: CheckMeasured
    var firstBuild: BuildRun
    var rebuild: BuildRun
    var editedLesson: BuildRun
    var rebuildWithoutSearch: Double
    var hugo: Double
    var mkdocs: (seconds: Double, treePeakKilobytes: Int)?

    var lessons: Int { checks.lessons }

    /// The peak of the tree over the builds with search and the warm check (no compiler runs).
    var buildTreePeakMegabytes: Double {
        Double([firstBuild.treePeakKilobytes, rebuild.treePeakKilobytes, editedLesson.treePeakKilobytes, checks.warmTreePeak].max()!) / 1024
    }
}

/// One build of `course` into `site`, with search; fails unless Pagefind indexed or reused as
/// `expectIndexed` says (a build without Pagefind on PATH measures what no user of `make` runs).
func searchBuild(_ course: String, into site: String, in work: String, expectIndexed: Bool) -> BuildRun {
    let result = mustRun(tool, ["build", course, "--out", site], in: work)
    let indexed = result.output.contains("search: pagefind indexed")
    let reused = result.output.contains("is the one in place")
    guard indexed || reused else { fail("the build made no search index; is pagefind on PATH ('make' installs it)?\n\(result.output)") }
    if indexed != expectIndexed {
        print("note: the build \(indexed ? "ran Pagefind" : "reused the index") where it was expected \(expectIndexed ? "to index" : "to reuse the index")")
    }
    return BuildRun(seconds: result.seconds, treePeakKilobytes: result.treePeakKilobytes, indexed: indexed)
}

/// The median run by time of several.
func medianRun(_ runs: [BuildRun]) -> BuildRun { runs.sorted { $0.seconds < $1.seconds }[runs.count / 2] }

/// Where coursebook keeps the Swift readings of every course (`Pipeline.sharedReadingsFolder`).
let sharedReadings: String = {
    let environment = ProcessInfo.processInfo.environment
    let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
    return base + "/coursebook/readings"
}()

/// What a cold check finds of the user's cache (`~/.cache/coursebook`).
enum ColdCache {
    /// Everything but the Swift readings, which are removed before each check: it parses every
    /// block as on a machine that never read them.
    case readingsRemoved
    /// Everything, readings too, as a CI runner finds it with that folder restored.
    case readingsKept
    /// Nothing: each check (and its floor) is given a cache folder of its own, new
    /// (`XDG_CACHE_HOME`), as on a CI runner with nothing restored; the check compiles the
    /// batch runner (C, with clang) and asks the compiler its language mode, and both sides build
    /// the compiler's module cache.
    case nothing
}

/// The floor (every scenario in one batched `swiftc -j2`) and the cold check, in turn, three
/// times: this machine's floor moved from 24 s to 29 s within two minutes, and two turns left
/// the ratio to one slow or fast minute. `cache` says what the check finds of the user's cache.
func coldTurns(course: String, batch: String, work: String, cache: ColdCache) -> Turns {
    var turns = Turns()
    let floorArguments = ["-j2", "-o", "program", "main.swift", "part1.swift", "part2.swift", "Invalidation.swift"]
    for turn in 0..<3 {
        let floor: Run, check: Run
        switch cache {
        case .readingsRemoved, .readingsKept:
            floor = floorRun(swiftc, floorArguments, in: batch, turn: turn)
            if cache == .readingsRemoved { try? FileManager.default.removeItem(atPath: sharedReadings) }
            check = mustRun(tool, ["check", course, "--no-cache"], in: work)
        case .nothing:
            let folders = (floor: "\(work)/new-cache-floor-\(turn)", check: "\(work)/new-cache-check-\(turn)")
            fresh(folders.floor)
            fresh(folders.check)
            floor = floorRun("/usr/bin/env", ["XDG_CACHE_HOME=\(folders.floor)", swiftc] + floorArguments, in: batch, turn: turn) {
                fresh(folders.floor)
            }
            check = mustRun("/usr/bin/env", ["XDG_CACHE_HOME=\(folders.check)", tool, "check", course, "--no-cache"], in: work)
            try? FileManager.default.removeItem(atPath: folders.floor)
            try? FileManager.default.removeItem(atPath: folders.check)
        }
        turns.floorWall.append(floor.seconds)
        turns.floorCPU.append(floor.cpu)
        turns.checkWall.append(check.seconds)
        turns.checkCPU.append(check.cpu)
        turns.floorTreePeak = max(turns.floorTreePeak, floor.treePeakKilobytes)
        turns.checkTreePeak = max(turns.checkTreePeak, check.treePeakKilobytes)
    }
    return turns
}

/// One run of the floor, the compiler alone: run once more when it fails (its driver crashed
/// once here before it compiled a file, and never again), after `again` puts back what the run
/// started from, and said; a second failure stops the bench. coursebook's own runs are never
/// run again.
func floorRun(_ executable: String, _ arguments: [String], in folder: String, turn: Int, again: () -> Void = {}) -> Run {
    let first = run(executable, arguments, in: folder)
    if first.succeeded { return first }
    let said = first.output.split(separator: "\n").prefix(3).joined(separator: " / ")
    say("the floor's swiftc failed in turn \(turn + 1) (\(said)); it is run once more, and that run is the one measured")
    again()
    return mustRun(executable, arguments, in: folder)
}

/// The check's rows: cold against the floor, warm, one edited scenario.
func measureChecks(course: String, lessons: Int, extracted: String, work: String)
    -> (turns: Turns, restored: Turns, nothingCached: Turns?, perScenario: Double, warm: Run, oneEdit: Double) {
    let singles = (try! FileManager.default.contentsOfDirectory(atPath: extracted + "/single")).sorted()
    // The compiler's module cache is warmed first, for both sides alike.
    _ = mustRun(swiftc, ["-o", "program", "main.swift", "Invalidation.swift"], in: "\(extracted)/single/\(singles[0])")
    let alone = singles.map { mustRun(swiftc, ["-o", "program", "main.swift", "Invalidation.swift"], in: "\(extracted)/single/\($0)").seconds }
    let turns = coldTurns(course: course, batch: extracted + "/batch2", work: work, cache: .readingsRemoved)
    let restored = coldTurns(course: course, batch: extracted + "/batch2", work: work, cache: .readingsKept)
    let nothingCached = lessons <= 100
        ? coldTurns(course: course, batch: extracted + "/batch2", work: work, cache: .nothing) : nil

    _ = mustRun(tool, ["check", course], in: work)
    let warms = (0..<5).map { _ in mustRun(tool, ["check", course], in: work) }.sorted { $0.seconds < $1.seconds }
    var warm = warms[2]
    warm.treePeakKilobytes = warms.map(\.treePeakKilobytes).max()!
    let lessonFiles = (try! FileManager.default.contentsOfDirectory(atPath: course)).filter { $0.hasSuffix(".md") }.sorted()
    let oneEdit = median((1...3).map { attempt in
        // A scenario's comment changes: its text and key change, its output does not.
        let path = "\(course)/\(lessonFiles[attempt * lessonFiles.count / 4])"
        let text = try! String(contentsOfFile: path, encoding: .utf8)
        let marker = "// main.swift — "
        let edited = text.replacingOccurrences(of: marker, with: marker + "edited \(attempt) ", options: [],
                                               range: text.range(of: marker))
        try! edited.write(toFile: path, atomically: true, encoding: .utf8)
        return mustRun(tool, ["check", course], in: work).seconds
    })
    return (turns, restored, nothingCached, alone.reduce(0, +) / Double(alone.count), warm, oneEdit)
}

/// The builds as users run them (search on): the first after the check (results cached,
/// nothing of the site yet), nothing changed (median of 3), one lesson's prose edited (median
/// of 3, a different lesson each time); and, for comparison, nothing changed without search.
func measureBuilds(course: String, work: String) -> (first: BuildRun, rebuild: BuildRun, edited: BuildRun, withoutSearch: Double) {
    let site = work + "/site"
    let first = searchBuild(course, into: site, in: work, expectIndexed: true)
    let rebuild = medianRun((0..<3).map { _ in searchBuild(course, into: site, in: work, expectIndexed: false) })
    let lessonFiles = (try! FileManager.default.contentsOfDirectory(atPath: course)).filter { $0.hasSuffix(".md") }.sorted()
    let edited = medianRun((1...3).map { attempt in
        // A sentence more after the lesson's title: its page and its words in the index change.
        let path = "\(course)/\(lessonFiles[attempt * lessonFiles.count / 5])"
        var text = try! String(contentsOfFile: path, encoding: .utf8)
        text.insert(contentsOf: "Zeplinkuşu\(attempt) bir kelime daha. ", at: text.range(of: "\n\n")!.upperBound)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return searchBuild(course, into: site, in: work, expectIndexed: true)
    })
    let plain = work + "/site-no-search"
    _ = mustRun(tool, ["build", course, "--out", plain, "--no-search"], in: work)
    let withoutSearch = median((0..<3).map { _ in mustRun(tool, ["build", course, "--out", plain, "--no-search"], in: work).seconds })
    return (first, rebuild, edited, withoutSearch)
}

/// A fresh copy of the corpus of `lessons` lessons to measure on, and its scenarios extracted
/// for plain swiftc (`scenarios.py`).
func prepare(_ lessons: Int) -> (course: String, work: String, extracted: String, scenarios: Int) {
    let source = corpus(lessons)
    let work = "\(benchFolder)/work-\(lessons)"
    fresh(work)
    let course = work + "/course"
    try! FileManager.default.copyItem(atPath: source, toPath: course)
    try? FileManager.default.removeItem(atPath: course + "/.coursebook-cache")
    say("measuring \(lessons) lessons ...")
    let extracted = work + "/scenarios"
    _ = mustRun(python, [sharedBench + "/scenarios.py", course, extracted, "--sample", String(options.sample)], in: root)
    let count = Int((try! String(contentsOfFile: extracted + "/count", encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))!
    return (course, work, extracted, count)
}

/// The check's rows of the corpus of `lessons` lessons (all that `--check-only` measures).
func measureCheckRows(_ lessons: Int) -> (checks: CheckMeasured, course: String, work: String) {
    let prepared = prepare(lessons)
    let checks = measureChecks(course: prepared.course, lessons: lessons, extracted: prepared.extracted, work: prepared.work)
    return (CheckMeasured(lessons: lessons, scenarios: prepared.scenarios, turns: checks.turns, restored: checks.restored,
                          nothingCached: checks.nothingCached,
                          perScenario: checks.perScenario,
                          warm: checks.warm.seconds, warmTreePeak: checks.warm.treePeakKilobytes, oneEdit: checks.oneEdit),
            prepared.course, prepared.work)
}

func measure(_ lessons: Int) -> Measured {
    let (checks, course, work) = measureCheckRows(lessons)
    let builds = measureBuilds(course: course, work: work)

    // The peers on the same Markdown.
    let hugoTime = measureHugo(course: course, work: work, lessons: lessons)
    let mkdocsTime = measureMkDocs(course: course, work: work, repeats: lessons <= 100 ? 2 : 1)

    return Measured(checks: checks, firstBuild: builds.first, rebuild: builds.rebuild, editedLesson: builds.edited,
                    rebuildWithoutSearch: builds.withoutSearch, hugo: hugoTime, mkdocs: mkdocsTime)
}

/// hugo's build of the same Markdown, the best of two at 100 lessons (one at 1000).
func measureHugo(course: String, work: String, lessons: Int) -> Double {
    let hugoFolder = work + "/hugo"
    hugoSite(for: course, at: hugoFolder)
    return (0..<(lessons <= 100 ? 2 : 1)).map { _ in
        try? FileManager.default.removeItem(atPath: hugoFolder + "/public")
        return mustRun(hugo, ["--quiet", "--source", hugoFolder], in: hugoFolder).seconds
    }.min()!
}

/// The builds alone (`--site-only`): the check once, untimed, to fill the cache (kept under
/// .build/bench between such runs, so that the next one checks warm), then the builds as in
/// `measure`, beside hugo.
func measureSite(_ lessons: Int) -> Measured {
    let source = corpus(lessons)
    let work = "\(benchFolder)/work-site-\(lessons)"
    fresh(work)
    let course = work + "/course"
    try! FileManager.default.copyItem(atPath: source, toPath: course)
    let kept = "\(benchFolder)/site-cache-\(lessons)"
    try? FileManager.default.removeItem(atPath: course + "/.coursebook-cache")
    if FileManager.default.fileExists(atPath: kept) { try! FileManager.default.copyItem(atPath: kept, toPath: course + "/.coursebook-cache") }
    say("measuring the builds of \(lessons) lessons ...")
    let check = mustRun(tool, ["check", course], in: work)
    if !FileManager.default.fileExists(atPath: kept) { try? FileManager.default.copyItem(atPath: course + "/.coursebook-cache", toPath: kept) }
    let builds = measureBuilds(course: course, work: work)
    let hugoTime = measureHugo(course: course, work: work, lessons: lessons)
    let checks = CheckMeasured(lessons: lessons, scenarios: 0, turns: Turns(), restored: Turns(), perScenario: 0,
                               warm: check.seconds, warmTreePeak: 0, oneEdit: 0)
    return Measured(checks: checks, firstBuild: builds.first, rebuild: builds.rebuild, editedLesson: builds.edited,
                    rebuildWithoutSearch: builds.withoutSearch, hugo: hugoTime, mkdocs: nil)
}
