import Foundation
#if canImport(Glibc)
import Glibc
#endif

// coursebook-bench: `make bench`. Generates the benchmark corpora with the workplace's
// gen-course.py (100 lessons, seed 1; 1000 lessons, seed 2; 3 scenarios and 3 SwiftUI
// illustrations a lesson) and measures coursebook on them against the floor (every scenario in
// one batched `swiftc -j2`), a sample compiled one by one, and hugo building the same Markdown
// with highlighting, all in the same run. Prints one table and exits 1 when a target is missed.
//
// It also times check and build on lessons nested as deep as a hostile author makes them
// (50,000 emphases, 10,000 lists) against cmark-gfm's own command on the same file: the ratio
// says whether coursebook stays linear where cmark-gfm is.
//
// And it times the check of 100 `errors` scenarios (expected compile errors, generated here,
// their blocks written from what plain `swiftc -typecheck` says) against that floor: one
// `swiftc -module-name main -typecheck` per scenario, two at a time on two cores.
//
// And `coursebook lsp` as an editor meets it on the 100-lesson corpus, warm: a saved prose
// edit until its diagnostics come, and a changed scenario against the check's one-edit time.
//
// usage: coursebook-bench [--lessons 100,1000] [--sample K] [--shared DIR] [--nesting-only] [--lsp-only] [--errors-only]

struct Options {
    var sizes = [100, 1000]
    var sample = 5
    /// The workplace's bench folder (gen-course.py, scenarios.py).
    var shared: String?
    /// Only the nesting cases (no corpus, no hugo, no compiler).
    var nestingOnly = false
    /// Only the editor's rows (the 100-lesson corpus, no hugo, no nesting).
    var lspOnly = false
    /// Only the `errors` scenarios (no corpus, no hugo, no nesting).
    var errorsOnly = false
}

var parsed = Options()
var arguments = CommandLine.arguments.dropFirst()
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: coursebook-bench [--lessons 100,1000] [--sample K] [--shared DIR] [--nesting-only] [--lsp-only] [--errors-only]\n".utf8))
    exit(64)
}
while let flag = arguments.popFirst() {
    if flag == "--nesting-only" { parsed.nestingOnly = true; continue }
    if flag == "--lsp-only" { parsed.lspOnly = true; continue }
    if flag == "--errors-only" { parsed.errorsOnly = true; continue }
    guard let value = arguments.popFirst() else { usage() }
    switch flag {
    case "--lessons":
        let sizes = value.split(separator: ",").compactMap { Int($0) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { usage() }
        parsed.sizes = sizes
    case "--sample":
        guard let sample = Int(value), sample > 0 else { usage() }
        parsed.sample = sample
    case "--shared":
        parsed.shared = value
    default:
        usage()
    }
}

let options = parsed
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
let benchFolder = root + "/.build/bench"
let sharedBench = options.shared ?? ProcessInfo.processInfo.environment["COURSEBOOK_BENCH_SHARED"]
    ?? URL(fileURLWithPath: root + "/../shared/bench").standardizedFileURL.path
let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coursebook").path

func fail(_ message: String) -> Never {
    print("coursebook-bench: \(message)")
    exit(1)
}

func onPath(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if access(path, X_OK) == 0 { return path }
    }
    return nil
}

guard FileManager.default.isExecutableFile(atPath: tool) else { fail("no coursebook beside this program (\(tool)); run 'swift build -c release'") }
guard let cmarkGFM = onPath("cmark-gfm") else { fail("cmark-gfm is not installed ('make bench' installs Debian's cmark-gfm)") }
let needsCorpora = !options.nestingOnly && !options.errorsOnly
guard !needsCorpora || FileManager.default.fileExists(atPath: sharedBench + "/gen-course.py") else {
    fail("no gen-course.py in \(sharedBench); pass --shared DIR or set COURSEBOOK_BENCH_SHARED")
}
guard let python = onPath("python3") ?? (needsCorpora ? nil : "") else { fail("python3 is not installed") }
guard let swiftc = onPath("swiftc") else { fail("swiftc is not on PATH") }
guard let pagefind = onPath("pagefind") ?? (options.lspOnly || options.errorsOnly ? "" : nil) else {
    fail("pagefind is not on PATH: every build users run indexes the site with it ('make' installs it)")
}
guard let hugo = onPath("hugo") ?? (needsCorpora && !options.lspOnly ? nil : "") else { fail("hugo is not installed ('make bench' installs Debian's hugo)") }

// MARK: Running and timing

/// One run of a program: how long it took, the CPU time it and the processes it started and
/// waited for used (user and system, wait4), how it ended, the largest memory one process of
/// it held (wait4's maxrss: its own, or a child's), the peak of its whole tree's summed
/// memory (sampled, see `treeMemoryMethod`), and what it printed.
struct Run {
    var seconds: Double
    var cpu: Double
    var succeeded: Bool
    var peakKilobytes: Int
    var treePeakKilobytes: Int
    var output: String
}

/// Runs a program in a folder, its output into a file, and measures it with wait4.
func run(_ executable: String, _ arguments: [String], in folder: String) -> Run {
    let log = benchFolder + "/last-run.log"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // `sh` changes folder, then becomes the program (exec): the process measured is it.
    let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder, executable] + arguments
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, environ) == 0 else { fail("cannot start \(executable)") }
    let (status, usage, treePeak) = waitMeasured(pid, sampler: TreeSampler(root: pid))
    let elapsed = ContinuousClock.now - start
    let (whole, fraction) = elapsed.components
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return Run(seconds: Double(whole) + Double(fraction) / 1e18, cpu: cpuSeconds(usage), succeeded: status == 0,
               peakKilobytes: usage.ru_maxrss, treePeakKilobytes: treePeak, output: output)
}

func mustRun(_ executable: String, _ arguments: [String], in folder: String) -> Run {
    let result = run(executable, arguments, in: folder)
    guard result.succeeded else { fail("\(executable) \(arguments.joined(separator: " ")) failed:\n\(result.output)") }
    return result
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func fresh(_ folder: String) {
    try? FileManager.default.removeItem(atPath: folder)
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
}

// MARK: The corpora

/// The corpus of `lessons` lessons, generated once and kept under .build/bench.
func corpus(_ lessons: Int) -> String {
    let seed = lessons == 100 ? 1 : lessons == 1000 ? 2 : 3
    let folder = "\(benchFolder)/corpus-\(lessons)-3-seed\(seed)"
    if FileManager.default.fileExists(atPath: folder + "/course.json") { return folder }
    print("generating \(lessons) lessons with gen-course.py (once; kept in \(folder)) ...")
    let partial = folder + ".partial"
    try? FileManager.default.removeItem(atPath: partial)
    _ = mustRun(python, [sharedBench + "/gen-course.py", String(lessons), "3", partial, "--seed", String(seed)], in: root)
    try! FileManager.default.moveItem(atPath: partial, toPath: folder)
    return folder
}

/// hugo's project for the same Markdown: every page lists every lesson (as coursebook's
/// sidebar does) and fenced code is highlighted (hugo's default).
func hugoSite(for course: String, at folder: String) {
    fresh(folder)
    let layouts = folder + "/layouts/_default"
    try! FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
    try! FileManager.default.createDirectory(atPath: folder + "/content", withIntermediateDirectories: true)
    let config = """
        baseURL = "/"
        title = "bench"
        disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
        [markup.highlight]
          noClasses = false

        """
    let nav = #"<ol>{{ range .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .File.ContentBaseName }}</a></li>{{ end }}</ol>"#
    let single = """
        <!DOCTYPE html>
        <html lang="tr"><head><meta charset="utf-8"><title>{{ .File.ContentBaseName }}</title></head>
        <body><nav>\(nav)</nav><main>{{ .Content }}</main></body></html>

        """
    let list = """
        <!DOCTYPE html>
        <html lang="tr"><head><meta charset="utf-8"><title>{{ .Site.Title }}</title></head>
        <body>\(nav)</body></html>

        """
    try! config.write(toFile: folder + "/hugo.toml", atomically: true, encoding: .utf8)
    try! single.write(toFile: layouts + "/single.html", atomically: true, encoding: .utf8)
    try! list.write(toFile: layouts + "/list.html", atomically: true, encoding: .utf8)
    try! list.write(toFile: folder + "/layouts/index.html", atomically: true, encoding: .utf8)
    for name in try! FileManager.default.contentsOfDirectory(atPath: course) where name.hasSuffix(".md") {
        try! FileManager.default.copyItem(atPath: "\(course)/\(name)", toPath: "\(folder)/content/\(name)")
    }
}

// MARK: Nesting

/// A lesson nested as deep as a hostile author makes it, timed against cmark-gfm's own command
/// (parse and render, with the GitHub extensions) on the same file.
struct Nesting {
    var name: String
    var cmark: Double
    var check: Double
    /// Built with search, as users build it.
    var build: Double
    var buildTreePeakKilobytes: Int
    /// Built without search (no user runs this): coursebook's own walk, against cmark-gfm's.
    var buildWithoutSearch: Double
}

func measureNesting() -> [Nesting] {
    let depth = 50_000, lists = 10_000
    // The lesson of the report that found the slow walk (300 KB), and lists of one item each.
    let emphases = String(repeating: "*x ", count: depth) + "y" + String(repeating: " x*", count: depth)
    let cases = [
        ("\(depth) nested emphases", emphases),
        ("\(lists) nested list items", String(repeating: "- ", count: lists) + "DR1 <kbd>K</kbd> last"),
    ]
    print("measuring nesting ...")
    return cases.enumerated().map { index, entry in
        let folder = "\(benchFolder)/nesting-\(index)"
        fresh(folder)
        try! #"{ "title": "Nesting", "language": "en", "limitNotes": "optional" }"#
            .write(toFile: folder + "/course.json", atomically: true, encoding: .utf8)
        let lesson = folder + "/01-deep.md"
        try! "# Deep\n\n\(entry.1)\n\nDR1. The note.\n".write(toFile: lesson, atomically: true, encoding: .utf8)
        let extensions = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"].flatMap { ["-e", $0] }
        let cmark = (0..<3).map { _ in mustRun(cmarkGFM, extensions + [lesson], in: folder).seconds }.min()!
        let check = (0..<3).map { _ in mustRun(tool, ["check", folder, "--no-cache"], in: folder).seconds }.min()!
        let plain = (0..<3).map { _ in mustRun(tool, ["build", folder, "--out", folder + "-plain", "--no-cache", "--no-search"], in: benchFolder).seconds }.min()!
        // With search: a new index each time (the site in place is removed first).
        let builds = (0..<2).map { _ in
            try? FileManager.default.removeItem(atPath: folder + "-site")
            return searchBuild(folder, into: folder + "-site", in: benchFolder, expectIndexed: true)
        }
        return Nesting(name: entry.0, cmark: cmark, check: check, build: builds.map(\.seconds).min()!,
                       buildTreePeakKilobytes: builds.map(\.treePeakKilobytes).max()!, buildWithoutSearch: plain)
    }
}

// MARK: The editor

/// `coursebook lsp` driven as an editor drives it: `Content-Length` frames on its standard
/// input, what it answers read on a thread of its own.
final class EditorSession: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    private var received: [[String: Any]] = []

    init(in folder: String) {
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["lsp"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try! process.run()
        Thread { [self] in
            var buffer = Data()
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                condition.lock()
                buffer += data
                while let end = buffer.range(of: Data("\r\n\r\n".utf8)) {
                    let header = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                    let length = Int(header.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))!
                    guard buffer.count - (end.upperBound - buffer.startIndex) >= length else { break }
                    let body = buffer[end.upperBound..<end.upperBound + length]
                    buffer = Data(buffer[(end.upperBound + length)...])
                    received.append((try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:])
                }
                condition.broadcast()
                condition.unlock()
            }
        }.start()
    }

    func send(_ message: [String: Any]) {
        var message = message
        message["jsonrpc"] = "2.0"
        let body = try! JSONSerialization.data(withJSONObject: message)
        input.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    /// Waits for the next diagnostics of `uri` (two minutes at most).
    func diagnostics(of uri: String) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(120)
        while true {
            if let index = received.firstIndex(where: { $0["method"] as? String == "textDocument/publishDiagnostics"
                && ($0["params"] as? [String: Any])?["uri"] as? String == uri }) {
                received.remove(at: index)
                return
            }
            guard condition.wait(until: deadline) else { fail("coursebook lsp published no diagnostics for \(uri)") }
        }
    }

    func end() {
        send(["id": 99, "method": "shutdown"])
        send(["method": "exit"])
        process.waitUntilExit()
    }
}

struct EditorMeasured {
    var prose: Double
    var scenario: Double
    var checkOneEdit: Double
}

/// The editor on the warm 100-lesson corpus: a lesson open, then edits saved to it, each timed
/// from the save's notification to the diagnostics it brings.
func measureEditor() -> EditorMeasured {
    let source = corpus(100)
    let work = "\(benchFolder)/work-editor"
    fresh(work)
    let course = work + "/course"
    try! FileManager.default.copyItem(atPath: source, toPath: course)
    print("measuring the editor on 100 lessons ...")
    _ = mustRun(tool, ["check", course], in: work)
    let lessons = (try! FileManager.default.contentsOfDirectory(atPath: course)).filter { $0.hasSuffix(".md") }.sorted()
    let path = course + "/" + lessons[lessons.count / 2]
    let uri = URL(fileURLWithPath: path).absoluteString
    let session = EditorSession(in: work)
    session.send(["id": 1, "method": "initialize", "params": ["capabilities": [:]]])
    session.send(["method": "initialized", "params": [:]])
    var text = try! String(contentsOfFile: path, encoding: .utf8)
    session.send(["method": "textDocument/didOpen", "params": ["textDocument": [
        "uri": uri, "languageId": "markdown", "version": 1, "text": text]]])
    session.diagnostics(of: uri)
    var version = 1
    /// Saves `edited` as an editor does (the file, then didChange and didSave) and times the
    /// save until the diagnostics.
    func save(_ edited: String) -> Double {
        version += 1
        try! edited.write(toFile: path, atomically: true, encoding: .utf8)
        session.send(["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": version],
                                                                      "contentChanges": [["text": edited]]]])
        let start = ContinuousClock.now
        session.send(["method": "textDocument/didSave", "params": ["textDocument": ["uri": uri]]])
        session.diagnostics(of: uri)
        let (whole, fraction) = (ContinuousClock.now - start).components
        return Double(whole) + Double(fraction) / 1e18
    }
    let prose = median((1...5).map { attempt in
        // A word more in the lesson's first paragraph after its title.
        let title = text.range(of: "\n\n")!.upperBound
        text.insert(contentsOf: "Bir kelime \(attempt) daha. ", at: title)
        return save(text)
    })
    let marker = "// main.swift — "
    let scenario = median((1...3).map { attempt in
        text = text.replacingOccurrences(of: marker, with: marker + "edited \(attempt) ", options: [], range: text.range(of: marker))
        return save(text)
    })
    session.end()
    // The check's one edit, in the same way as the corpus rows: another lesson's scenario.
    let other = course + "/" + lessons[lessons.count / 4]
    let checkOneEdit = median((1...3).map { attempt in
        let original = try! String(contentsOfFile: other, encoding: .utf8)
        try! original.replacingOccurrences(of: marker, with: marker + "edited \(attempt) ", options: [],
                                           range: original.range(of: marker)).write(toFile: other, atomically: true, encoding: .utf8)
        return mustRun(tool, ["check", course], in: work).seconds
    })
    return EditorMeasured(prose: prose, scenario: scenario, checkOneEdit: checkOneEdit)
}

// MARK: The table

func seconds(_ value: Double) -> String { String(format: value < 1 ? "%.2f s" : "%.1f s", value) }

struct Row {
    var what: String
    var value: String
    var against: String
    var target: String
    var met: Bool?
}

try? FileManager.default.createDirectory(atPath: benchFolder, withIntermediateDirectories: true)
let cores = ProcessInfo.processInfo.activeProcessorCount
let swiftVersion = run(swiftc, ["--version"], in: root).output.split(separator: "\n").first.map(String.init) ?? "?"
let hugoVersion = needsCorpora && !options.lspOnly ? run(hugo, ["version"], in: root).output.split(separator: " ").prefix(2).joined(separator: " ") : "hugo not run"
let pagefindVersion = pagefind.isEmpty ? "pagefind not run" : run(pagefind, ["--version"], in: root).output.trimmingCharacters(in: .whitespacesAndNewlines)
let mkdocs = needsCorpora && !options.lspOnly ? mkdocsProgram() : (nil, "not run")
let mkdocsVersion = mkdocs.program.map { run($0, ["--version"], in: root).output.split(separator: " ").prefix(3).joined(separator: " ") + ", " + (run(URL(fileURLWithPath: $0).deletingLastPathComponent().path + "/python", ["-c", "import importlib.metadata as m; print('mkdocs-material ' + m.version('mkdocs-material'))"], in: root).output.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? "MkDocs not run: \(mkdocs.reason)"

let results = needsCorpora && !options.lspOnly ? options.sizes.map(measure) : []
let nesting = options.lspOnly || options.errorsOnly ? [] : measureNesting()
let editor = needsCorpora ? measureEditor() : nil
let refusals = options.nestingOnly || options.lspOnly ? [] : [measureErrors(withCore: false), measureErrors(withCore: true)]

/// How many times cmark-gfm's own time a command on a deeply nested lesson may take: the
/// command also starts, loads, checks and writes a site, so it is a constant factor above;
/// a walk that is not linear is hundreds of times above.
let nestingRatio = 10.0

var rows: [Row] = results.flatMap(corpusRows)

if let editor {
    rows.append(Row(what: "Editor (coursebook lsp, 100 lessons)", value: "", against: "", target: "", met: nil))
    rows.append(Row(what: "  saved prose edit → diagnostics", value: seconds(editor.prose), against: "",
                    target: "≤ 0.2 s", met: editor.prose <= 0.2))
    rows.append(Row(what: "  changed scenario → diagnostics", value: seconds(editor.scenario),
                    against: "check's one edit \(seconds(editor.checkOneEdit))",
                    target: String(format: "≤ one edit + 0.05 s (%+.3f s)", editor.scenario - editor.checkOneEdit),
                    met: editor.scenario <= editor.checkOneEdit + 0.05))
}

for result in refusals {
    rows.append(Row(what: "\(result.scenarios) errors scenarios\(result.withCore ? ", core file" : ", no core")", value: "",
                    against: "", target: "", met: nil))
    rows.append(Row(what: "  cold check (--no-cache)", value: seconds(result.cold),
                    against: "floor \(seconds(result.floor)) (swiftc -typecheck each, 2 at a time)",
                    target: String(format: "≤ 1.3 × floor (%.2f×)", result.cold / result.floor),
                    met: result.cold <= 1.3 * result.floor && result.allPassed))
    rows.append(Row(what: "  warm check (nothing changed)", value: seconds(result.warm), against: "no compiler runs",
                    target: "compiles 0", met: result.warmCompiledNothing))
}

rows += nestingRows(nesting, ratio: nestingRatio)

print("")
print("coursebook bench: \(cores) cores, \(swiftVersion), \(hugoVersion), \(pagefindVersion), \(mkdocsVersion)")
print("Builds run with search (Pagefind on PATH, as `make` installs it) unless a row says otherwise.")
print("Tree memory: \(treeMemoryMethod).")
print("CPU: user + system time of the process and the processes it waited for (wait4).")
print("")
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
print(padded("", 40) + padded("coursebook", 14) + padded("compared with", 56) + padded("target", 42) + "")
for row in rows {
    let verdict = row.met.map { $0 ? "met" : "MISSED" } ?? ""
    print(padded(row.what, 40) + padded(row.value, 14) + padded(row.against, 56) + padded(row.target, 42) + verdict)
}
exit(rows.allSatisfy { $0.met != false } ? 0 : 1)
