import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `coursebook lsp` as an editor uses it, on a copy of `Tests/Fixtures/editor`: 01-output.md has
/// an output block that differs from its run (line 13) and a scenario without one (line 20),
/// 02-notes.md a note and a core listing, 03-compile.md a compile error after non-ASCII text.
@Suite(.serialized) struct LanguageServerTests {
    let course: URL

    init() throws {
        let folder = temporaryFolder("lsp")
        course = folder.appendingPathComponent("editor")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("editor"), to: course)
        try? FileManager.default.removeItem(at: course.appendingPathComponent(".coursebook-cache"))
    }

    func lesson(_ name: String) -> URL { course.appendingPathComponent(name) }

    func codes(_ diagnostics: [[String: Any]]?) -> [String] { (diagnostics ?? []).compactMap { $0["code"] as? String } }

    func range(_ diagnostic: [String: Any]?) -> [Int] {
        let range = diagnostic?["range"] as? [String: Any]
        let start = range?["start"] as? [String: Any], end = range?["end"] as? [String: Any]
        return [start?["line"], start?["character"], end?["line"], end?["character"]].map { $0 as? Int ?? -1 }
    }

    /// The fixes, applied as the editor applies them, give the bytes `check --update` writes,
    /// and a clean set of findings; the file on disk is never touched by the server.
    @Test func quickFixesAreTheUpdateEditsAndLeaveTheLessonClean() throws {
        let client = try LanguageClient(in: course)
        let capabilities = client.initialize()
        #expect(capabilities?["positionEncoding"] as? String == "utf-16")
        let file = lesson("01-output.md")
        let original = try String(contentsOf: file, encoding: .utf8)
        let uri = client.open(file)
        let first = client.diagnostics(for: uri)
        #expect(codes(first) == ["output-mismatch", "scenario-without-output"])
        // The differing line of the output block ("merhaba dunya", line 13), whole.
        #expect(range(first?.first) == [12, 0, 12, 13])
        let related = (first?.first?["relatedInformation"] as? [[String: Any]])?.compactMap { $0["message"] as? String }
        #expect(related?.first?.contains("-merhaba dunya\n+merhaba dünya") == true)

        // Accept the output: asked at the finding, with the finding.
        let accept = client.request("textDocument/codeAction", [
            "textDocument": ["uri": uri], "range": first!.first!["range"]!, "context": ["diagnostics": [first!.first!]],
        ])?["result"] as? [[String: Any]]
        #expect(accept?.map { $0["title"] as? String } == ["Accept the output this run printed"])
        var text = original
        for edit in edits(of: accept?.first ?? [:], uri: uri) { text = applying(edit, to: text) }
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": text]]])
        #expect(codes(client.diagnostics(for: uri)) == ["scenario-without-output"])

        // Insert the missing block, asked on the scenario's line.
        let insert = client.request("textDocument/codeAction", [
            "textDocument": ["uri": uri], "range": ["start": ["line": 19, "character": 0], "end": ["line": 19, "character": 0]],
            "context": ["diagnostics": []],
        ])?["result"] as? [[String: Any]]
        #expect(insert?.map { $0["title"] as? String } == ["Insert the missing output block"])
        for edit in edits(of: insert?.first ?? [:], uri: uri) { text = applying(edit, to: text) }
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3], "contentChanges": [["text": text]]])
        #expect(codes(client.diagnostics(for: uri)) == [])
        #expect(try String(contentsOf: file, encoding: .utf8) == original)
        #expect(client.shutDown() == 0)

        // What --update writes into a copy of the lesson as it was.
        let updated = try copyForUpdate()
        #expect(try coursebook(["check", updated.appendingPathComponent("01-output.md").path, "--update"]).status == 0)
        #expect(try String(contentsOf: updated.appendingPathComponent("01-output.md"), encoding: .utf8) == text)
    }

    /// A lesson of listings that must fail, for the quick fixes of `errors` and `trap` blocks.
    static let mustFail = """
        # Must fail

        ```swift scenario
        let a = 1
        a = 2
        ```

        ```errors
        2: error: cannot assign
        ```

        ```swift scenario
        let scores = [1]
        print(scores[0])
        print(scores[3])
        ```

        ```output
        1
        ```

        ```trap
        Fatal error: Out of range
        ```

        ```swift scenario
        let empty: Int? = nil
        print("before")
        print(empty!)
        ```

        ```trap
        Fatal error: Unexpectedly found nil while unwrapping an Optional value
        ```

        """

    /// The fixes of `errors` and `trap` blocks are the edits `--update` makes, too: the
    /// compiler's errors accepted, the runtime's message accepted, a trap's missing `output`
    /// block inserted; applied, they leave the lesson clean and equal to what `--update` writes.
    @Test func quickFixesOfErrorsAndTrapBlocksAreTheUpdateEdits() throws {
        let file = lesson("04-must-fail.md")
        try Self.mustFail.write(to: file, atomically: true, encoding: .utf8)
        let client = try LanguageClient(in: course)
        _ = client.initialize()
        let uri = client.open(file)
        #expect(codes(client.diagnostics(for: uri)) == ["errors-mismatch", "trap-mismatch", "scenario-without-output"])
        func action(atLine line: Int) -> [String: Any]? {
            let found = client.request("textDocument/codeAction", [
                "textDocument": ["uri": uri], "range": ["start": ["line": line, "character": 0], "end": ["line": line, "character": 0]],
                "context": ["diagnostics": []],
            ])?["result"] as? [[String: Any]]
            #expect(found?.count == 1)
            return found?.first
        }
        let actions = [action(atLine: 2), action(atLine: 11), action(atLine: 25)]
        #expect(actions.map { $0?["title"] as? String } == [
            "Accept the errors the compiler gave", "Accept the trap this run gave", "Insert the missing output block",
        ])
        // Each edit is whole lines of its own block: applied from the last, the others stay put.
        var text = Self.mustFail
        for action in actions.reversed() {
            for edit in edits(of: action ?? [:], uri: uri) { text = applying(edit, to: text) }
        }
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": text]]])
        #expect(codes(client.diagnostics(for: uri)) == [])
        #expect(client.shutDown() == 0)

        let updated = try copyForUpdate().appendingPathComponent("04-must-fail.md")
        try Self.mustFail.write(to: updated, atomically: true, encoding: .utf8)
        #expect(try coursebook(["check", updated.path, "--update"]).status == 0)
        #expect(try String(contentsOf: updated, encoding: .utf8) == text)
        #expect(text.contains("```errors\n2:1: error: cannot assign to value: 'a' is a 'let' constant\n```"))
    }

    func copyForUpdate() throws -> URL {
        let copy = temporaryFolder("lsp-update").appendingPathComponent("editor")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("editor"), to: copy)
        return copy
    }

    /// The compiler's column after `söz = "çalışkan"`: UTF-16 units by default, bytes when the
    /// client offers UTF-8.
    @Test(arguments: [["utf-16"], ["utf-8", "utf-16"]])
    func compileErrorColumnInTheNegotiatedEncoding(_ offered: [String]) throws {
        let client = try LanguageClient(in: course)
        let capabilities = client.initialize(encodings: offered)
        let utf8 = offered.contains("utf-8")
        #expect(capabilities?["positionEncoding"] as? String == (utf8 ? "utf-8" : "utf-16"))
        let uri = client.open(lesson("03-compile.md"))
        let found = client.diagnostics(for: uri)
        #expect(codes(found) == ["compile-error"])
        let line = "let söz = \"çalışkan\"; let n: Int = söz"
        let before = String(line[..<line.range(of: "söz", options: .backwards)!.lowerBound])
        let column = utf8 ? before.utf8.count : before.utf16.count
        let wordEnd = column + (utf8 ? "söz".utf8.count : "söz".utf16.count)
        #expect(range(found?.first) == [5, column, 5, wordEnd])
        #expect(client.shutDown() == 0)
    }

    @Test func hoverDefinitionSymbolsAndLenses() throws {
        let client = try LanguageClient(in: course)
        _ = client.initialize()
        let uri = client.open(lesson("01-output.md"))
        _ = client.diagnostics(for: uri)
        func at(_ method: String, _ line: Int, _ character: Int) -> Any? {
            client.request("textDocument/\(method)", ["textDocument": ["uri": uri],
                                                     "position": ["line": line, "character": character]])?["result"]
        }
        func hover(_ line: Int, _ character: Int) -> String? {
            ((at("hover", line, character) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        }
        // On the output block: what ran, the diff, how it was obtained.
        let output = hover(11, 2)
        #expect(output?.contains("```text\nhello, world\nmerhaba dünya\n```") == true)
        #expect(output?.contains("-merhaba dunya\n+merhaba dünya") == true)
        #expect(output?.contains("· Swift ") == true)
        // On a DR mention (line 25: "See DR2 and ..."): the note of another lesson.
        #expect(hover(24, 5) == "**DR2** (02-notes.md, line 5)\n\nNothing is measured twice.")
        // On a scenario: its verdict.
        #expect(hover(5, 3)?.contains("✗ output differs") == true)

        func target(_ line: Int, _ character: Int) -> [Any] {
            let location = at("definition", line, character) as? [String: Any]
            return [location?["uri"] as? String ?? "", ((location?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int ?? -1]
        }
        let notes = lesson("02-notes.md").absoluteURL.absoluteString
        #expect(target(24, 5) as? [AnyHashable] == [notes, 4])
        // The link to 02-notes.md#what-is-left-out: that heading.
        #expect(target(24, 20) as? [AnyHashable] == [notes, 2])
        // A link to a heading of the same lesson (", or [the greeting](#greeting)"): that heading.
        #expect(target(24, 70) as? [AnyHashable] == [uri, 2])

        let symbols = client.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]])?["result"] as? [[String: Any]]
        func outline(_ symbols: [[String: Any]]) -> String {
            symbols.map { symbol in
                let children = symbol["children"] as? [[String: Any]] ?? []
                return (symbol["name"] as? String ?? "") + (children.isEmpty ? "" : "(" + outline(children) + ")")
            }.joined(separator: ", ")
        }
        #expect(outline(symbols ?? []) == "Output(Greeting(greets in two languages, DR1), Counting(counts to three))")

        let lenses = client.request("textDocument/codeLens", ["textDocument": ["uri": uri]])?["result"] as? [[String: Any]]
        #expect(lenses?.map { ($0["command"] as? [String: Any])?["title"] as? String } == ["✗ output differs", "✗ no output block"])
        #expect(client.shutDown() == 0)

        // In the other lesson, the core listing goes to its file.
        let second = try LanguageClient(in: course)
        _ = second.initialize()
        let notesURI = second.open(lesson("02-notes.md"))
        _ = second.diagnostics(for: notesURI)
        let core = second.request("textDocument/definition", ["textDocument": ["uri": notesURI],
                                                              "position": ["line": 9, "character": 4]])?["result"] as? [String: Any]
        #expect(core?["uri"] as? String == lesson("Greeting.swift").absoluteURL.absoluteString)
        #expect(second.shutDown() == 0)
    }

    /// A passing lesson's lens says how long it ran, and then that it came from the cache.
    @Test func lensesSayPassedAndCached() throws {
        try "# Pass\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n".write(to: lesson("04-pass.md"), atomically: true, encoding: .utf8)
        for expected in ["✓ passed · ", "✓ passed · cached"] {
            let client = try LanguageClient(in: course)
            _ = client.initialize()
            let uri = client.open(lesson("04-pass.md"))
            #expect(codes(client.diagnostics(for: uri)) == [])
            let lenses = client.request("textDocument/codeLens", ["textDocument": ["uri": uri]])?["result"] as? [[String: Any]]
            let title = (lenses?.first?["command"] as? [String: Any])?["title"] as? String ?? ""
            #expect(title.hasPrefix(expected) && (expected.hasSuffix("cached") || title.hasSuffix(" s")), "\(title)")
            #expect(client.shutDown() == 0)
        }
    }

    /// Broken input is answered with the protocol's errors, and the server goes on.
    @Test func malformedMessagesGetTheProtocolsErrors() throws {
        let client = try LanguageClient(in: course)
        func error(_ response: [String: Any]?) -> Int? { (response?["error"] as? [String: Any])?["code"] as? Int }
        #expect(error(client.request("textDocument/hover", [:])) == -32002)  // before initialize
        _ = client.initialize()
        client.sendRaw(Data("Content-Length: 9\r\n\r\n{\"id\": 1,".utf8))
        #expect(error(client.wait { $0["error"] != nil }) == -32700)
        client.sendRaw(Data("Content-Type: nothing\r\n\r\n".utf8))
        #expect(error(client.wait { $0["error"] != nil }) == -32700)
        client.send(["id": 40, "params": [:]])
        #expect(error(client.wait { ($0["id"] as? Int) == 40 }) == -32600)
        #expect(error(client.request("textDocument/rename", ["textDocument": ["uri": "file:///x.md"]])) == -32601)
        #expect(error(client.request("textDocument/hover", ["position": 3])) == -32602)
        // Still serving.
        let uri = client.open(lesson("03-compile.md"))
        #expect(codes(client.diagnostics(for: uri)) == ["compile-error"])
        #expect(client.shutDown() == 0)
    }

    /// A course.json that cannot be read is one finding on course.json; fixing it brings the
    /// lesson's findings back.
    @Test func anUnreadableCourseIsOneDiagnosticOnCourseJSON() throws {
        let config = course.appendingPathComponent("course.json")
        let good = try String(contentsOf: config, encoding: .utf8)
        try "{ \"title\": \"Editor\", \"language\": \"en\", \"colour\": 1 }\n".write(to: config, atomically: true, encoding: .utf8)
        let client = try LanguageClient(in: course)
        _ = client.initialize()
        let uri = client.open(lesson("03-compile.md"))
        #expect(codes(client.diagnostics(for: uri)) == [])
        let configURI = config.absoluteURL.absoluteString
        let broken = client.diagnostics(for: configURI)
        #expect(codes(broken) == ["course-unreadable"])
        try good.write(to: config, atomically: true, encoding: .utf8)
        client.notify("textDocument/didSave", ["textDocument": ["uri": configURI]])
        #expect(codes(client.diagnostics(for: uri)) == ["compile-error"])
        #expect(codes(client.diagnostics(for: configURI)) == [])
        #expect(client.shutDown() == 0)
    }

    /// A newer edit cancels the check in progress where it is: a scenario that would loop until
    /// its (high) time limit is fixed while it runs, and the fixed lesson's findings are the
    /// next ones published, with the loop's program already ended and the check's scratch
    /// folders gone; the superseded check never publishes (its time-out would come first).
    @Test func aNewerEditStopsTheScenarioRunningForAnOlderText() throws {
        let name = "06-loop.md"
        let marker = UUID().uuidString
        func text(_ code: String) -> String {
            "# Loop\n\n```swift scenario\n// \(marker)\n\(code)\n```\n\n```output\nfixed\n```\n"
        }
        try text("while true {}").write(to: lesson(name), atomically: true, encoding: .utf8)
        let client = try LanguageClient(in: course, arguments: ["--timeout", "300"])
        _ = client.initialize()
        let uri = client.open(lesson(name))
        var running: Set<pid_t> = []
        for _ in 0..<2400 where running.isEmpty {
            running = descendants(of: client.process.processIdentifier).filter(isScenarioProgram)
            usleep(50_000)
        }
        #expect(!running.isEmpty, "the looping scenario never started")
        client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                                 "contentChanges": [["text": text("print(\"fixed\")")]]])
        // The first findings published for the lesson are the fixed text's: none.
        let first = client.diagnostics(for: uri)
        #expect(first != nil, "no diagnostics within two minutes")
        #expect(codes(first) == [])
        let alive = running.filter { kill($0, 0) == 0 && !isZombie($0) }
        #expect(alive.isEmpty, "the superseded scenario still runs: \(alive.map { commandLine($0) })")
        let scratch = "coursebook-\(client.process.processIdentifier)-"
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
            .filter { $0.hasPrefix(scratch) }
        #expect(left.isEmpty, "scratch folders left: \(left)")
        #expect(client.shutDown() == 0)
        // Nothing of the superseded check came after: not its time-out, not anything.
        #expect(client.diagnostics(for: uri) == nil)
    }

    /// Closing a lesson whose check runs ends that check too: its findings are cleared, its
    /// looping program ends and its scratch folders go (within seconds, not at its time
    /// limit), and it publishes nothing afterwards.
    @Test func closingALessonStopsItsCheck() throws {
        let name = "07-closed.md"
        try "# Closed\n\n```swift scenario\n// \(UUID())\nwhile true {}\n```\n\n```output\n```\n"
            .write(to: lesson(name), atomically: true, encoding: .utf8)
        let client = try LanguageClient(in: course, arguments: ["--timeout", "300"])
        _ = client.initialize()
        let uri = client.open(lesson(name))
        var running: Set<pid_t> = []
        for _ in 0..<2400 where running.isEmpty {
            running = descendants(of: client.process.processIdentifier).filter(isScenarioProgram)
            usleep(50_000)
        }
        #expect(!running.isEmpty, "the looping scenario never started")
        client.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        #expect(client.diagnostics(for: uri)?.isEmpty == true)
        let scratch = "coursebook-\(client.process.processIdentifier)-"
        func left() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
                .filter { $0.hasPrefix(scratch) }
        }
        func alive() -> Set<pid_t> { running.filter { kill($0, 0) == 0 && !isZombie($0) } }
        for _ in 0..<600 where !alive().isEmpty || !left().isEmpty { usleep(50_000) }
        #expect(alive().isEmpty, "the closed lesson's scenario still runs: \(alive().map { commandLine($0) })")
        #expect(left().isEmpty, "scratch folders left: \(left())")
        #expect(client.shutDown() == 0)
        #expect(client.diagnostics(for: uri) == nil)
    }

    /// `exit` without `shutdown` is status 1; either way no process of a check outlives the
    /// server: not a compiler at work, not a scenario's program.
    @Test(arguments: [false, true])
    func exitEndsEveryProcess(whileTheScenarioRuns: Bool) throws {
        // A scenario of its own text, so that it compiles (nothing cached) and then runs on.
        let name = "05-slow.md"
        // A long literal keeps the compiler at work long enough to be seen.
        let literal = "let numbers: [Double] = [" + (0..<20_000).map { "\($0).5" }.joined(separator: ", ") + "]\n"
        try "# Slow\n\n```swift scenario\n// \(UUID())\n\(whileTheScenarioRuns ? "" : literal)while true {}\n```\n\n```output\n```\n"
            .write(to: lesson(name), atomically: true, encoding: .utf8)
        let client = try LanguageClient(in: course, arguments: ["--timeout", "120"])
        _ = client.initialize()
        _ = client.open(lesson(name))
        let awaited: (pid_t) -> Bool = { whileTheScenarioRuns ? isScenarioProgram($0) : isCompiler($0) }
        var seen: Set<pid_t> = []
        for _ in 0..<600 where !seen.contains(where: awaited) {
            seen.formUnion(descendants(of: client.process.processIdentifier))
            usleep(50_000)
        }
        #expect(seen.contains(where: awaited), "\(seen.map { commandLine($0).prefix(120) })")
        seen.formUnion(descendants(of: client.process.processIdentifier))
        client.notify("exit", [:])
        client.process.waitUntilExit()
        #expect(client.process.terminationStatus == 1)
        usleep(300_000)
        let alive = seen.filter { kill($0, 0) == 0 && !isZombie($0) }
        #expect(alive.isEmpty, "still running: \(alive.map { commandLine($0) })")
    }
}

func commandLine(_ pid: pid_t) -> String {
    ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").replacingOccurrences(of: "\0", with: " ")
}

/// A compiler at work for the server.
func isCompiler(_ pid: pid_t) -> Bool { commandLine(pid).contains("swift-frontend") }

/// Every process below `parent`, read from /proc.
func descendants(of parent: pid_t) -> Set<pid_t> {
    var parents: [pid_t: pid_t] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let ppid = pid_t(fields[1]) { parents[pid] = ppid }
    }
    var found: Set<pid_t> = []
    var pending = [parent]
    while let next = pending.popLast() {
        for (pid, ppid) in parents where ppid == next && found.insert(pid).inserted { pending.append(pid) }
    }
    return found
}

/// A scenario's program (batched or alone), not a compiler or the sandbox.
func isScenarioProgram(_ pid: pid_t) -> Bool {
    let command = commandLine(pid)
    return command.hasPrefix("/run/scenario/main") || command.contains("/main ") && !command.contains("swift")
}

func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
}
