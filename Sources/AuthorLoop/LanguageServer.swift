package import CoursePipeline
internal import CourseFiles
internal import CourseModel
import Foundation

/// `coursebook lsp`'s options: those of `check` that make sense in an editor, and how long
/// typing must pause before the unsaved text is checked.
package struct LanguageServerOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    package var debounce: Duration = .milliseconds(300)

    package init() {}
}

/// A request whose params lack what it needs.
struct InvalidParams: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The protocol's error codes the server answers with.
enum ResponseError: Int {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case serverNotInitialized = -32002
}

/// `coursebook lsp`: a Language Server Protocol 3.17 server on standard input and output for
/// the lessons of a course (the folder above a lesson that holds `course.json`). It reads
/// messages on the calling thread, checks lessons on the check queue's, and answers from what
/// the last check of each lesson found.
package final class LanguageServer: @unchecked Sendable {
    enum Phase { case starting, running, shuttingDown }

    /// A lesson the editor has open: its text as the editor holds it.
    struct Document {
        var path: String
        var text: [UInt8]
        var version: Int
    }

    struct State {
        var phase = Phase.starting
        var encoding = PositionEncoding.utf16
        var documentChanges = false
        var lensRefresh = false
        var documents: [String: Document] = [:]
        var checked: [String: CheckedLesson] = [:]
        /// Files other than the lessons (course.json, core files) that hold findings now.
        var courseFilesWithFindings: Set<String> = []
        var nextRequest = 1
    }

    private let reader: MessageReader
    private let writer: MessageWriter
    private let options: LanguageServerOptions
    private let pipeline = Pipeline()
    let state = Locked(State())
    private var queue: CheckQueue!
    /// Held by a check while it decides to publish and publishes, and by a newer edit while it
    /// cancels that check: a check's findings go out whole before the edit arrives, or never.
    private let publishing = NSLock()

    package init(input: Int32, output: Int32, options: LanguageServerOptions) {
        reader = MessageReader(descriptor: input)
        writer = MessageWriter(descriptor: output)
        self.options = options
        queue = CheckQueue { [unowned self] uri, cancellation in check(uri, cancellation: cancellation) }
    }

    /// Serves until `exit` (0 after `shutdown`, 1 without) or the end of the input (1); ends
    /// every process a check started before it returns.
    package func run() -> Int32 {
        defer {
            queue.stop()
            CommandLifetime.endStartedProcesses()
        }
        while true {
            switch reader.next() {
            case .end:
                return 1
            case .malformedHeader(let why):
                respond(id: .null, error: .parseError, why)
            case .message(let body):
                if let status = handle(body) { return status }
            }
        }
    }

    // MARK: Messages

    /// One message; an exit status when it was `exit`.
    private func handle(_ body: Data) -> Int32? {
        guard let message = JSONValue.decoded(body) else {
            respond(id: .null, error: .parseError, "the message is not JSON")
            return nil
        }
        let id = message["id"]
        let validID = id.map { $0.int != nil || $0.string != nil } ?? false
        guard message.isObject, message["jsonrpc"]?.string == "2.0" else {
            respond(id: validID ? id! : .null, error: .invalidRequest, "a message is a JSON-RPC 2.0 object")
            return nil
        }
        guard let method = message["method"]?.string else {
            // A response to a request of ours (workspace/codeLens/refresh): nothing to do.
            if validID, message["result"] != nil || message["error"] != nil { return nil }
            respond(id: validID ? id! : .null, error: .invalidRequest, "a request or notification needs a method")
            return nil
        }
        let params = message["params"] ?? .null
        guard let id else {
            return notification(method, params: params)
        }
        guard validID else {
            respond(id: .null, error: .invalidRequest, "a request's id is a number or a string")
            return nil
        }
        request(method, id: id, params: params)
        return nil
    }

    private func request(_ method: String, id: JSONValue, params: JSONValue) {
        let phase = state.withLock { $0.phase }
        switch (phase, method) {
        case (.starting, "initialize"):
            respond(id: id, result: initialize(params))
        case (.starting, _):
            respond(id: id, error: .serverNotInitialized, "the server has not been initialized")
        case (.running, "initialize"):
            respond(id: id, error: .invalidRequest, "the server is already initialized")
        case (.shuttingDown, _):
            respond(id: id, error: .invalidRequest, "the server is shutting down")
        case (.running, "shutdown"):
            state.withLock { $0.phase = .shuttingDown }
            queue.stop()
            respond(id: id, result: .null)
        case (.running, _):
            guard let handler = Self.handlers[method] else {
                respond(id: id, error: .methodNotFound, "unknown method \(method)")
                return
            }
            guard let uri = params["textDocument"]?["uri"]?.string else {
                respond(id: id, error: .invalidParams, "\(method) needs params.textDocument.uri")
                return
            }
            let (checked, encoding, documentChanges, version) = state.withLock {
                ($0.checked[uri], $0.encoding, $0.documentChanges, $0.documents[uri]?.version)
            }
            guard let checked else {
                respond(id: id, result: method == "textDocument/hover" || method == "textDocument/definition" ? .null : [])
                return
            }
            let context = RequestContext(uri: uri, params: params, checked: checked, encoding: encoding,
                                         documentChanges: documentChanges, currentVersion: version)
            switch handler(context) {
            case .success(let result): respond(id: id, result: result)
            case .failure(let why): respond(id: id, error: .invalidParams, why.message)
            }
        }
    }

    private func notification(_ method: String, params: JSONValue) -> Int32? {
        let phase = state.withLock { $0.phase }
        if method == "exit" { return phase == .shuttingDown ? 0 : 1 }
        guard phase == .running else { return nil }
        let uri = params["textDocument"]?["uri"]?.string
        switch method {
        case "textDocument/didOpen":
            guard let uri, let path = FileURI.path(uri), path.hasSuffix(".md"),
                  let text = params["textDocument"]?["text"]?.string else { return nil }
            let version = params["textDocument"]?["version"]?.int ?? 0
            state.withLock { $0.documents[uri] = Document(path: path, text: Array(text.utf8), version: version) }
            superseding { queue.schedule(uri, after: .zero) }
        case "textDocument/didChange":
            guard let uri, let changes = params["contentChanges"]?.array else { return nil }
            let known = state.withLock { state -> Bool in
                guard var document = state.documents[uri] else { return false }
                for change in changes { document.text = Self.applying(change, to: document.text, encoding: state.encoding) }
                document.version = params["textDocument"]?["version"]?.int ?? document.version + 1
                state.documents[uri] = document
                return true
            }
            if known { superseding { queue.schedule(uri, after: options.debounce) } }
        case "textDocument/didSave":
            guard let uri else { return nil }
            if state.withLock({ $0.documents[uri] }) != nil {
                superseding { queue.schedule(uri, after: .zero) }
            } else {
                // course.json or a core file: every open lesson is checked again.
                let open = state.withLock { Array($0.documents.keys) }
                superseding { for lesson in open { queue.schedule(lesson, after: .zero) } }
            }
        case "textDocument/didClose":
            guard let uri else { return nil }
            // Its findings go with it, and its check in progress: the file on disk is what the
            // next check reads.
            superseding {
                queue.cancel(uri)
                let wasOpen = state.withLock { state -> Bool in
                    state.checked[uri] = nil
                    return state.documents.removeValue(forKey: uri) != nil
                }
                if wasOpen { publish(uri, []) }
            }
        default:
            break  // initialized, $/cancelRequest, $/setTrace, workspace notifications ...
        }
        return nil
    }

    /// An edit's effect on the checks (a newer one scheduled, the one in progress cancelled),
    /// made while no check is publishing.
    private func superseding(_ edit: () -> Void) {
        publishing.lock()
        defer { publishing.unlock() }
        edit()
    }

    /// A content change: the whole text, or (from a client that sends them anyway) a range.
    static func applying(_ change: JSONValue, to text: [UInt8], encoding: PositionEncoding) -> [UInt8] {
        guard let new = change["text"]?.string else { return text }
        guard let range = TextRange(change["range"]) else { return Array(new.utf8) }
        let source = SourceText(text)
        let positions = TextPositions(source, encoding: encoding)
        func offset(_ position: Position) -> Int {
            guard position.line < source.lineCount else { return text.count }
            let place = positions.place(of: position)
            return source.startOffset(ofLine: place.line) + place.column - 1
        }
        let start = offset(range.start), end = max(start, offset(range.end))
        return Array(text[..<start]) + Array(new.utf8) + Array(text[end...])
    }

    private func initialize(_ params: JSONValue) -> JSONValue {
        let capabilities = params["capabilities"] ?? .null
        let offered = capabilities["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        let encoding = PositionEncoding.negotiated(offered)
        state.withLock { state in
            state.phase = .running
            state.encoding = encoding
            state.documentChanges = capabilities["workspace"]?["workspaceEdit"]?["documentChanges"]?.bool ?? false
            state.lensRefresh = capabilities["workspace"]?["codeLens"]?["refreshSupport"]?.bool ?? false
        }
        return [
            "capabilities": [
                "positionEncoding": .string(encoding.rawValue),
                "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
                "hoverProvider": true,
                "definitionProvider": true,
                "documentSymbolProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
                "codeLensProvider": ["resolveProvider": false],
            ],
            "serverInfo": ["name": "coursebook", "version": .string(CoursebookVersion.current)],
        ]
    }

    // MARK: Requests about a checked lesson

    struct RequestContext {
        var uri: String
        var params: JSONValue
        var checked: CheckedLesson
        var encoding: PositionEncoding
        var documentChanges: Bool
        var currentVersion: Int?

        var positions: TextPositions { TextPositions(checked.lesson.source, encoding: encoding) }
    }

    static let handlers: [String: @Sendable (RequestContext) -> Result<JSONValue, InvalidParams>] = [
        "textDocument/hover": { context in
            guard let position = Position(context.params["position"]) else { return .failure(InvalidParams("hover needs params.position")) }
            let place = context.positions.place(of: position)
            guard let text = LessonNavigation.hover(line: place.line, column: place.column, in: context.checked) else { return .success(.null) }
            return .success(["contents": ["kind": "markdown", "value": .string(text)]])
        },
        "textDocument/definition": { context in
            guard let position = Position(context.params["position"]) else { return .failure(InvalidParams("definition needs params.position")) }
            let place = context.positions.place(of: position)
            guard let target = LessonNavigation.definition(line: place.line, column: place.column, in: context.checked) else {
                return .success(.null)
            }
            let start = Position(line: target.line - 1, character: 0)
            return .success(["uri": .string(FileURI.uri(target.path)), "range": TextRange(start, start).json])
        },
        "textDocument/documentSymbol": { context in
            .success(.array(LessonNavigation.symbols(context.checked, positions: context.positions)))
        },
        "textDocument/codeLens": { context in
            .success(.array(LessonNavigation.lenses(context.checked, positions: context.positions)))
        },
        "textDocument/codeAction": { context in
            guard let range = TextRange(context.params["range"]) else { return .failure(InvalidParams("codeAction needs params.range")) }
            // Fixes are edits of the text that was checked: none for a newer text, whose
            // check is on its way.
            guard context.currentVersion == nil || context.currentVersion == context.checked.version else { return .success([]) }
            return .success(.array(QuickFixes.actions(
                for: range, in: context.checked, uri: context.uri, encoding: context.encoding,
                documentChanges: context.documentChanges,
                diagnostics: context.params["context"]?["diagnostics"]?.array ?? [])))
        },
    ]

    // MARK: Checks

    /// Checks one open lesson (on the queue's thread) and publishes what it found, unless a
    /// newer edit cancelled it: its compiler and programs are then killed where they are (the
    /// check ends at once), and nothing of it is published or kept.
    private func check(_ uri: String, cancellation: Cancellation) {
        guard let (document, everything) = state.withLock({ state in state.documents[uri].map { ($0, state.documents) } }) else { return }
        let fileName = (document.path as NSString).lastPathComponent
        // A Markdown file that is not a lesson of a course (a README, notes) gets no findings.
        guard let folder = Self.courseFolder(above: document.path),
              (document.path as NSString).deletingLastPathComponent == folder,
              Pipeline.isLessonFileName(fileName) else {
            publishing.lock()
            defer { publishing.unlock() }
            if !cancellation.isCancelled { publish(uri, []) }
            return
        }
        var unsaved: [String: [UInt8]] = [:]
        for other in everything.values where (other.path as NSString).deletingLastPathComponent == folder {
            unsaved[(other.path as NSString).lastPathComponent] = other.text
        }
        let outcome: EditorCheck
        do {
            outcome = try pipeline.check(lesson: fileName, in: folder, unsaved: unsaved, options: options.shared,
                                         cancellation: cancellation)
        } catch {
            publishing.lock()
            defer { publishing.unlock() }
            if !cancellation.isCancelled { publishFailure(error, lesson: uri, folder: folder, document: document) }
            return
        }
        publishing.lock()
        defer { publishing.unlock() }
        guard case .checked(let course, let checked) = outcome, !cancellation.isCancelled,
              let lessonIndex = course.lessons.firstIndex(where: { $0.fileName == fileName }) else { return }
        let lesson = CheckedLesson(course: course, lessonIndex: lessonIndex, report: checked.report, version: document.version)
        let encoding = state.withLock { $0.encoding }
        let found = EditorFindings.byFile(lesson, encoding: encoding)
        let (stale, refresh) = state.withLock { state -> (Set<String>, Bool) in
            state.checked[uri] = lesson
            let courseFiles = Set(found.keys).subtracting([uri]).filter { !found[$0]!.isEmpty }
            let stale = state.courseFilesWithFindings.subtracting(courseFiles)
            state.courseFilesWithFindings = courseFiles
            return (stale, state.lensRefresh)
        }
        for (file, diagnostics) in found.sorted(by: { $0.key < $1.key }) { publish(file, diagnostics) }
        for file in stale.sorted() { publish(file, []) }
        if refresh { sendRequest("workspace/codeLens/refresh", params: .null) }
    }

    /// A course that cannot be read (or no compiler, no sandbox): one diagnostic, on the file
    /// it names when that is a file of the course, else on course.json; the lesson itself is
    /// then clean of older findings.
    private func publishFailure(_ error: PipelineError, lesson uri: String, folder: String, document: Document) {
        let encoding = state.withLock { $0.encoding }
        let named = error.diagnostic.location.flatMap { location -> String? in
            guard !location.file.isEmpty else { return nil }
            let path = location.file.hasPrefix("/") ? location.file
                : URL(fileURLWithPath: location.file).standardizedFileURL.path
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue ? path : nil
        }
        let path = named ?? folder + "/course.json"
        let target = FileURI.uri(path)
        let text = target == uri ? document.text : (readFile(atPath: path) ?? [])
        let positions = TextPositions(SourceText(text), encoding: encoding)
        let line = max(error.diagnostic.location?.line ?? 1, 1)
        let column = max(error.diagnostic.location?.column ?? 1, 1)
        let range = TextRange(positions.position(line: line, column: column), positions.end(ofLine: line))
        let diagnostic = EditorFindings.diagnostic(error.diagnostic, range: range, uri: target, course: nil, encoding: encoding)
        let stale = state.withLock { state -> Set<String> in
            state.checked[uri] = nil
            let stale = state.courseFilesWithFindings.subtracting([target])
            state.courseFilesWithFindings = target == uri ? [] : [target]
            return stale
        }
        if target != uri { publish(uri, []) }
        publish(target, [diagnostic])
        for file in stale.sorted() { publish(file, []) }
    }

    /// The course a lesson belongs to: the nearest folder above it that holds `course.json`.
    static func courseFolder(above path: String) -> String? {
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            if FileManager.default.fileExists(atPath: folder + "/course.json") { return folder }
            guard folder != "/" else { return nil }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    // MARK: Sending

    private func publish(_ uri: String, _ diagnostics: [JSONValue]) {
        writer.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                     "params": ["uri": .string(uri), "diagnostics": .array(diagnostics)]])
    }

    private func sendRequest(_ method: String, params: JSONValue) {
        let id = state.withLock { state -> Int in
            defer { state.nextRequest += 1 }
            return state.nextRequest
        }
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if params != .null { message["params"] = params }
        writer.send(.object(message))
    }

    private func respond(id: JSONValue, result: JSONValue) {
        writer.send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    private func respond(id: JSONValue, error: ResponseError, _ message: String) {
        writer.send(["jsonrpc": "2.0", "id": id, "error": ["code": .int(error.rawValue), "message": .string(message)]])
    }
}
