import CourseModel
import ScenarioRunning
import Foundation

// coursebook-bench: times `coursebook check` on a synthetic course against plain swiftc runs
// measured in the same run. Run through `make bench`; see the README for the targets.
//
// usage: coursebook-bench [--lessons N] [--scenarios N] [--sample N] [--keep]

struct Options: Sendable {
    var lessons = 100
    var scenariosPerLesson = 3
    /// How many scenarios to compile one by one; the cost of all of them is extrapolated.
    var sample = 20
    /// Leave the synthetic course behind, to look into a result.
    var keep = false
}

var parsedOptions = Options()
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    if flag == "--keep" { parsedOptions.keep = true; continue }
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
        FileHandle.standardError.write(Data("usage: coursebook-bench [--lessons N] [--scenarios N] [--sample N] [--keep]\n".utf8))
        exit(64)
    }
    switch flag {
    case "--lessons": parsedOptions.lessons = value
    case "--scenarios": parsedOptions.scenariosPerLesson = value
    case "--sample": parsedOptions.sample = value
    default:
        FileHandle.standardError.write(Data("coursebook-bench: unknown option '\(flag)'\n".utf8))
        exit(64)
    }
}

let options = parsedOptions

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let corePath = packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift").path
let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("coursebook").path
guard FileManager.default.isExecutableFile(atPath: tool) else {
    print("coursebook-bench: no coursebook binary beside this one (\(tool)); run 'swift build -c release'")
    exit(1)
}
let compiler = try SwiftCompiler.locate(versionCache: nil)

let workspace = FileManager.default.temporaryDirectory
    .appendingPathComponent("coursebook-bench-\(getpid())")
let courseFolder = workspace.appendingPathComponent("course")
try FileManager.default.createDirectory(at: courseFolder, withIntermediateDirectories: true)
/// Ends the bench: the workspace goes unless `--keep` asked for it.
func finish(_ status: Int32) -> Never {
    if options.keep {
        print("kept the synthetic course in \(courseFolder.path)")
    } else {
        try? FileManager.default.removeItem(at: workspace)
    }
    exit(status)
}

// MARK: The synthetic course

func scenario(_ lesson: Int, _ number: Int) -> String {
    let id = "\(lesson)x\(number)"
    return """
        // main.swift — bench lesson \(lesson), scenario \(number)
        let tree = ViewTree(nodes: [
            ViewNode("Root\(lesson)", parent: nil, reads: []),
            ViewNode("Screen\(id)", parent: "Root\(lesson)", reads: ["count\(id)"]),
            ViewNode("Row\(id)", parent: "Screen\(id)", reads: ["count\(id)", "theme"]),
            ViewNode("Footer\(id)", parent: "Root\(lesson)", reads: ["theme"]),
        ], storage: ["count\(id)": .state(owner: "Screen\(id)"), "theme": .environment])
        let all = [tree.change("arttir", key: "count\(id)"), tree.change("tema", key: "theme")].flatMap { $0 }
        countCauses(all)

        """
}

try #"{ "title": "Bench", "language": "en", "core": ["\#(corePath)"] }"#
    .write(to: courseFolder.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
var note = 0
for lesson in 1...options.lessons {
    var text = "# Bench Lesson \(lesson)\n\nA synthetic lesson.\n"
    for number in 1...options.scenariosPerLesson {
        note += 1
        text += "\n## Measurement \(number)\n\n```swift scenario\n\(scenario(lesson, number))```\n\n```output\n```\n\nDR\(note). Synthetic.\n"
    }
    try text.write(to: courseFolder.appendingPathComponent(String(format: "%03d-bench.md", lesson)),
                   atomically: true, encoding: .utf8)
}
let total = options.lessons * options.scenariosPerLesson

// MARK: Timing

func run(_ executable: String, _ arguments: [String], in folder: URL) -> (Duration, Termination, String) {
    var watcher = CollectingWatcher()
    let start = ContinuousClock.now
    let termination = (try? ChildProcess(executable: executable, arguments: arguments,
                                         workingDirectory: folder.path).run(watching: &watcher)) ?? .exited(127)
    let elapsed = ContinuousClock.now - start
    return (elapsed, termination, String(decoding: watcher.standardOutput + watcher.standardError, as: UTF8.self))
}

func check(_ extra: [String] = []) -> Duration {
    let (elapsed, termination, output) = run(tool, ["check", courseFolder.path] + extra, in: workspace)
    if !termination.isSuccess {
        print("coursebook check failed (\(termination)):\n\(output)")
        finish(1)
    }
    return elapsed
}

func inSeconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
}

func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }

print("synthetic course: \(options.lessons) lessons × \(options.scenariosPerLesson) scenarios = \(total) scenarios, \(ProcessInfo.processInfo.activeProcessorCount) cores, \(compiler.version)")

// Fill the output blocks once (not timed), so that every later check passes.
_ = check(["--update", "--no-cache"])
let cacheFolder = courseFolder.appendingPathComponent(".coursebook-cache")

try? FileManager.default.removeItem(at: cacheFolder)
let cold = check()
let warm = median((0..<5).map { _ in check() })

// One scenario edited: its comment changes, so its text and key change, its output does not.
let edited = courseFolder.appendingPathComponent(String(format: "%03d-bench.md", options.lessons / 2))
let lessonText = try String(contentsOf: edited, encoding: .utf8)
try lessonText.replacingOccurrences(of: "// main.swift — bench lesson", with: "// main.swift — edited bench lesson", options: [], range: lessonText.range(of: "// main.swift — bench lesson"))
    .write(to: edited, atomically: true, encoding: .utf8)
let oneEdit = check()

// The floor: every scenario in one batched swiftc run (two files, -j2), nothing else.
let floorFolder = workspace.appendingPathComponent("floor")
try FileManager.default.createDirectory(at: floorFolder, withIntermediateDirectories: true)
var halves = ["", ""]
var calls = ""
var index = 0
for lesson in 1...options.lessons {
    for number in 1...options.scenariosPerLesson {
        halves[index * 2 / total] += "func s\(index)() {\n\(scenario(lesson, number))}\n"
        calls += "    s\(index)()\n"
        index += 1
    }
}
try halves[0].write(to: floorFolder.appendingPathComponent("a.swift"), atomically: true, encoding: .utf8)
try halves[1].write(to: floorFolder.appendingPathComponent("b.swift"), atomically: true, encoding: .utf8)
try "func all() {\n\(calls)}\nall()\n".write(to: floorFolder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
let (floor, floorTermination, floorOutput) = run(compiler.executable, [
    "-module-name", "Floor", "-Onone", "-suppress-warnings", "-j\(ProcessInfo.processInfo.activeProcessorCount)",
    "-o", "program", corePath, "main.swift", "a.swift", "b.swift",
], in: floorFolder)
guard floorTermination.isSuccess else { print("the floor did not compile:\n\(floorOutput)"); finish(1) }

// One compile per scenario, on a sample, extrapolated to the whole course.
let sample = min(options.sample, total)
var oneByOne: [Duration] = []
for number in 0..<sample {
    let folder = workspace.appendingPathComponent("alone-\(number)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try scenario(number + 1, 1).write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
    let (elapsed, termination, output) = run(compiler.executable, [
        "-module-name", "Alone", "-Onone", "-suppress-warnings", "-o", "program", corePath, "main.swift",
    ], in: folder)
    guard termination.isSuccess else { print("a scenario did not compile alone:\n\(output)"); finish(1) }
    oneByOne.append(elapsed)
}
let perScenario = inSeconds(oneByOne.reduce(.zero, +)) / Double(sample)
let allOneByOne = perScenario * Double(total)

// MARK: Report

func row(_ name: String, _ value: String, _ target: String, _ met: Bool?) -> String {
    let verdict = met.map { $0 ? "met" : "MISSED" } ?? ""
    return name.padding(toLength: 34, withPad: " ", startingAt: 0)
        + value.padding(toLength: 12, withPad: " ", startingAt: 0)
        + target.padding(toLength: 40, withPad: " ", startingAt: 0) + verdict
}
func format(_ value: Double) -> String { String(format: "%.2f s", value) }

let coldSeconds = inSeconds(cold), floorSeconds = inSeconds(floor)
let targets = [
    coldSeconds <= 1.3 * floorSeconds,
    allOneByOne / coldSeconds >= 40,
    inSeconds(warm) < 0.3,
    inSeconds(oneEdit) < 1.5,
]
print("")
print(row("", "time", "target", nil))
print(row("cold check", format(coldSeconds), "≤ 1.3 × floor = \(format(1.3 * floorSeconds))", targets[0]))
print(row("", "", String(format: "≥ 40× faster than one by one (%.0f×)", allOneByOne / coldSeconds), targets[1]))
print(row("warm check (nothing changed)", format(inSeconds(warm)), "< 0.30 s (median of 5)", targets[2]))
print(row("one scenario edited", format(inSeconds(oneEdit)), "< 1.50 s", targets[3]))
print(row("floor: one batched swiftc run", format(floorSeconds), "all \(total) scenarios, 2 files, -j\(ProcessInfo.processInfo.activeProcessorCount)", nil))
print(row("one compile per scenario", format(perScenario), String(format: "× %d = %.0f s (mean of %d compiled)", total, allOneByOne, sample), nil))
finish(targets.allSatisfy { $0 } ? 0 : 1)
