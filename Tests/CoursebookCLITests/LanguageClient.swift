import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `coursebook lsp` driven as an editor drives it: messages framed with `Content-Length`,
/// written to its standard input; what it writes back read on a thread of its own and kept,
/// so that a test can wait for a response or a notification. Messages are plain JSON objects
/// (`[String: Any]` through JSONSerialization), independent of the server's own coding.
final class LanguageClient: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    private var received: [[String: Any]] = []
    private var ended = false
    private var nextID = 1

    init(in folder: URL, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: coursebookBinary)
        process.arguments = ["lsp"] + arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread { [self] in
            var buffer = Data()
            while true {
                let data = output.fileHandleForReading.availableData
                condition.lock()
                defer { condition.broadcast(); condition.unlock() }
                if data.isEmpty { ended = true; return }
                buffer += data
                while let message = Self.frame(&buffer) { received.append(message) }
            }
        }.start()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// One message out of the buffer, when a whole one is there.
    private static func frame(_ buffer: inout Data) -> [String: Any]? {
        guard let end = buffer.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let header = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        guard let line = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
              buffer.count - (end.upperBound - buffer.startIndex) >= length else { return nil }
        let body = buffer[end.upperBound..<end.upperBound + length]
        buffer = Data(buffer[(end.upperBound + length)...])
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? ["unreadable": true]
    }

    /// Raw bytes, as a broken client might send them.
    func sendRaw(_ bytes: Data) {
        input.fileHandleForWriting.write(bytes)
    }

    func send(_ message: [String: Any]) {
        var message = message
        message["jsonrpc"] = "2.0"
        let body = try! JSONSerialization.data(withJSONObject: message)
        sendRaw(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func notify(_ method: String, _ params: [String: Any]) {
        send(["method": method, "params": params])
    }

    /// Sends a request and waits for its response.
    func request(_ method: String, _ params: [String: Any]?) -> [String: Any]? {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method]
        if let params { message["params"] = params }
        send(message)
        return wait { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// The first message received (and not yet taken) that `matches`, within two minutes
    /// (a first check compiles); nil if none came or the server ended.
    func wait(_ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(120)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = received.firstIndex(where: matches) { return received.remove(at: index) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    /// The next diagnostics published for `uri`.
    func diagnostics(for uri: String) -> [[String: Any]]? {
        let message = wait { message in
            message["method"] as? String == "textDocument/publishDiagnostics"
                && (message["params"] as? [String: Any])?["uri"] as? String == uri
        }
        return (message?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]
    }

    /// `initialize` (offering `encodings`) and `initialized`; the server's capabilities.
    func initialize(encodings: [String] = ["utf-16"], documentChanges: Bool = true) -> [String: Any]? {
        let response = request("initialize", [
            "processId": getpid(), "rootUri": NSNull(),
            "capabilities": ["general": ["positionEncodings": encodings],
                             "workspace": ["workspaceEdit": ["documentChanges": documentChanges]]],
        ])
        notify("initialized", [:])
        return (response?["result"] as? [String: Any])?["capabilities"] as? [String: Any]
    }

    func open(_ file: URL, version: Int = 1) -> String {
        let uri = file.absoluteURL.absoluteString
        notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "markdown", "version": version,
                                                         "text": try! String(contentsOf: file, encoding: .utf8)]])
        return uri
    }

    /// `shutdown`, `exit`, and how the server ended.
    func shutDown() -> Int32 {
        _ = request("shutdown", nil)
        notify("exit", [:])
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A `TextEdit` applied to a text, positions counted in UTF-16 units or UTF-8 bytes.
func applying(_ edit: [String: Any], to text: String, utf8: Bool = false) -> String {
    let range = edit["range"] as! [String: Any]
    func offset(_ position: [String: Any]) -> String.Index {
        let line = position["line"] as! Int, character = position["character"] as! Int
        var index = text.startIndex
        for _ in 0..<line {
            guard let end = text[index...].firstIndex(of: "\n") else { return text.endIndex }
            index = text.index(after: end)
        }
        return utf8 ? text.utf8.index(index, offsetBy: character) : text.utf16.index(index, offsetBy: character)
    }
    var result = text
    result.replaceSubrange(offset(range["start"] as! [String: Any])..<offset(range["end"] as! [String: Any]),
                           with: edit["newText"] as! String)
    return result
}

/// The text edits of a code action's `WorkspaceEdit` for one document.
func edits(of action: [String: Any], uri: String) -> [[String: Any]] {
    let edit = action["edit"] as? [String: Any] ?? [:]
    if let changes = edit["documentChanges"] as? [[String: Any]] {
        return changes.filter { ($0["textDocument"] as? [String: Any])?["uri"] as? String == uri }
            .flatMap { $0["edits"] as? [[String: Any]] ?? [] }
    }
    return (edit["changes"] as? [String: Any])?[uri] as? [[String: Any]] ?? []
}
