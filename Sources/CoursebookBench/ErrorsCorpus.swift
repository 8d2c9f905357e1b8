import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: `errors` scenarios

/// The `swiftc` on PATH.
let typeChecker = onPath("swiftc") ?? "swiftc"

/// What checking a course of `errors` scenarios cost, against plain `swiftc -typecheck` once
/// per scenario, two at a time.
struct Refusals {
    var scenarios: Int
    var withCore: Bool
    var cold: Double
    var floor: Double
    var warm: Double
    /// The cold check passed every scenario: its verdicts are plain swiftc's, whose errors the
    /// corpus's blocks hold.
    var allPassed: Bool
    var warmCompiledNothing: Bool
}

/// The code of scenario `index`: a program the type checker refuses, one of a dozen kinds of
/// error a language book shows (every tenth in language mode 6, refused for concurrency).
func refusedProgram(_ index: Int) -> (code: String, mode6: Bool) {
    let i = index
    switch index % 12 {
    case 0: return ("let name\(i) = \"Swift\"\nname\(i) = \"Swift \(i)\"\n", false)
    case 1: return ("let count\(i): Int = \"\(i)\"\nprint(count\(i))\n", false)
    case 2: return ("enum Failure\(i): Error { case bad }\nfunc load\(i)() throws -> Int { throw Failure\(i).bad }\nlet value\(i) = load\(i)()\nprint(value\(i))\n", false)
    case 3: return ("enum Suit\(i) { case hearts, spades, clubs }\nlet suit\(i) = Suit\(i).hearts\nswitch suit\(i) {\ncase .hearts: print(\"hearts\")\ncase .spades: print(\"spades\")\n}\n", false)
    case 4: return ("struct Vault\(i) {\n    private var code = \(i)\n}\nlet vault\(i) = Vault\(i)()\nprint(vault\(i).code)\n", false)
    case 5: return ("print(undefinedValue\(i) + 1)\nlet total\(i) = missing\(i) * 2\n", false)
    case 6: return ("func greet\(i)(person: String) -> String { \"Hello, \" + person }\nprint(greet\(i)(name: \"Ann\"))\n", false)
    case 7: return ("let text\(i): String? = \"\(i)\"\nlet length\(i): Int = text\(i).count\n", false)
    case 8: return ("struct Counter\(i) {\n    var value = 0\n    mutating func bump() { value += 1 }\n}\nlet counter\(i) = Counter\(i)()\ncounter\(i).bump()\n", false)
    case 9: return ("protocol Named\(i) { var name: String { get } }\nstruct Person\(i): Named\(i) {}\nprint(Person\(i)())\n", false)
    case 10: return ("class Tally\(i) { var value = 0 }\nlet tally\(i) = Tally\(i)()\nfunc work\(i)() async {\n    Task.detached { tally\(i).value += 1 }\n}\n", true)
    default: return ("func add\(i)(_ a: Int, _ b: Int) -> Int { a + b }\nprint(add\(i)(1))\n", false)
    }
}

/// The errors plain `swiftc -module-name main -typecheck` gives for a file, as an `errors` block
/// writes them (`LINE:COLUMN: error: MESSAGE`), read from its default output.
func plainErrors(of folder: String, file: String, arguments: [String]) -> [String] {
    let said = run(typeChecker, ["-module-name", "main", "-typecheck", file] + arguments, in: folder).output
    return said.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix(file + ":"), let marker = line.range(of: ": error: ") else { return nil }
        let place = line[line.index(line.startIndex, offsetBy: file.count + 1)..<marker.lowerBound]
        return "\(place): error: \(line[marker.upperBound...])"
    }
}

/// A course of 100 `errors` scenarios in 34 lessons (with the repository's core, or none), each
/// block holding what plain swiftc says of its scenario alone; generated once, kept in
/// .build/bench.
func errorsCorpus(withCore: Bool) -> (folder: String, scenarios: [(folder: String, arguments: [String])]) {
    let count = 100
    let folder = "\(benchFolder)/errors-\(withCore ? "core" : "plain")-\(count)"
    let singles = folder + "-singles"
    let core = root + "/Sources/Invalidation/Invalidation.swift"
    var scenarios: [(folder: String, arguments: [String])] = []
    for index in 0..<count {
        let (_, mode6) = refusedProgram(index)
        scenarios.append(("\(singles)/\(index)", (withCore ? [singles + "/Invalidation.swift"] : []) + (mode6 ? ["-swift-version", "6"] : [])))
    }
    if FileManager.default.fileExists(atPath: folder + "/course.json") { return (folder, scenarios) }
    say("writing \(count) errors scenarios\(withCore ? " with the core" : "") (once; kept in \(folder)) ...")
    fresh(folder)
    fresh(singles)
    if withCore { try! FileManager.default.copyItem(atPath: core, toPath: singles + "/Invalidation.swift") }
    if withCore { try! FileManager.default.copyItem(atPath: core, toPath: folder + "/Invalidation.swift") }
    try! (#"{ "title": "Refused", "language": "en", "limitNotes": "optional""# + (withCore ? #", "core": ["Invalidation.swift"]"# : "") + " }\n")
        .write(toFile: folder + "/course.json", atomically: true, encoding: .utf8)
    var lessons: [String] = []
    for index in 0..<count {
        let (code, mode6) = refusedProgram(index)
        let single = scenarios[index].folder
        try! FileManager.default.createDirectory(atPath: single, withIntermediateDirectories: true)
        try! code.write(toFile: single + "/main.swift", atomically: true, encoding: .utf8)
        let errors = plainErrors(of: single, file: "main.swift", arguments: scenarios[index].arguments)
        guard !errors.isEmpty else { fail("the generated scenario \(index) compiles:\n\(code)") }
        let lesson = index / 3
        if lessons.count <= lesson { lessons.append("# Refused \(lesson + 1)\n\nPrograms the compiler refuses.\n") }
        lessons[lesson] += "\n## Case \(index)\n\n```swift scenario\(mode6 ? " language-mode=6" : "")\n\(code)```\n\n```errors\n"
            + errors.map { $0 + "\n" }.joined() + "```\n"
    }
    for (number, text) in lessons.enumerated() {
        try! text.write(toFile: String(format: "%@/%02d-refused.md", folder, number + 1), atomically: true, encoding: .utf8)
    }
    return (folder, scenarios)
}

/// Runs `swiftc -module-name main -typecheck main.swift ...` once per scenario, `parallel` at a
/// time, its output thrown away; the seconds it took.
func typeCheckFloor(_ scenarios: [(folder: String, arguments: [String])], parallel: Int) -> Double {
    let next = NSLock()
    nonisolated(unsafe) var position = 0
    let start = ContinuousClock.now
    DispatchQueue.concurrentPerform(iterations: parallel) { _ in
        while true {
            next.lock()
            let index = position
            position += 1
            next.unlock()
            guard index < scenarios.count else { return }
            let scenario = scenarios[index]
            let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\" > /dev/null 2>&1", scenario.folder, typeChecker,
                        "-module-name", "main", "-typecheck", "main.swift"] + scenario.arguments
            let cArguments = argv.map { strdup($0) } + [nil]
            var pid: pid_t = 0
            if posix_spawn(&pid, "/bin/sh", nil, nil, cArguments, environ) == 0 {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            }
            cArguments.forEach { free($0) }
        }
    }
    let (whole, fraction) = (ContinuousClock.now - start).components
    return Double(whole) + Double(fraction) / 1e18
}

func measureErrors(withCore: Bool) -> Refusals {
    let (corpus, scenarios) = errorsCorpus(withCore: withCore)
    say("measuring \(scenarios.count) errors scenarios\(withCore ? " with the core" : "") ...")
    let work = "\(benchFolder)/work-errors-\(withCore ? "core" : "plain")"
    fresh(work)
    let course = work + "/course"
    try! FileManager.default.copyItem(atPath: corpus, toPath: course)
    // The compiler's caches are warmed first, for both sides alike.
    _ = typeCheckFloor(Array(scenarios.prefix(4)), parallel: 2)
    _ = run(tool, ["check", course, "--no-cache"], in: work)
    var floors: [Double] = [], colds: [Double] = []
    var allPassed = true
    // Side by side, in turns: this machine's speed moves within minutes.
    for _ in 0..<3 {
        floors.append(typeCheckFloor(scenarios, parallel: 2))
        let cold = run(tool, ["check", course, "--no-cache"], in: work)
        allPassed = allPassed && cold.succeeded && cold.output.contains("\(scenarios.count) passed, 0 failed")
        if !cold.succeeded { print(cold.output) }
        colds.append(cold.seconds)
    }
    _ = run(tool, ["check", course], in: work)
    let warm = run(tool, ["check", course], in: work)
    return Refusals(scenarios: scenarios.count, withCore: withCore, cold: colds.min()!, floor: floors.min()!,
                    warm: warm.seconds, allPassed: allPassed,
                    warmCompiledNothing: warm.succeeded && warm.output.contains("compiled 0 scenarios"))
}
