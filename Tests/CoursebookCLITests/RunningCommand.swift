import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `coursebook` command that goes on running (`watch`, `serve`): its standard output read line
/// by line as it comes, each line with the moment it arrived, so that a test can wait for a
/// line and say how long it took.
final class RunningCommand: @unchecked Sendable {
    struct Line {
        var text: String
        var time: ContinuousClock.Instant
    }

    private let process = Process()
    private let condition = NSCondition()
    private var received: [Line] = []
    private var partial = ""
    private var errorBytes: [UInt8] = []
    private var outputEnded = false
    private var errorEnded = false

    init(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
         executable: String = coursebookBinary) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment
            .merging(["NO_COLOR": "1", "GITHUB_ACTIONS": ""].merging(environment) { $1 }) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread { [self] in
            while true {
                let data = output.fileHandleForReading.availableData
                condition.lock()
                if data.isEmpty {
                    outputEnded = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                partial += String(decoding: data, as: UTF8.self)
                let now = ContinuousClock.now
                while let end = partial.firstIndex(of: "\n") {
                    received.append(Line(text: String(partial[..<end]), time: now))
                    partial = String(partial[partial.index(after: end)...])
                }
                condition.broadcast()
                condition.unlock()
            }
        }.start()
        Thread { [self] in
            while true {
                let data = errors.fileHandleForReading.availableData
                condition.lock()
                defer { condition.unlock() }
                if data.isEmpty {
                    errorEnded = true
                    condition.broadcast()
                    return
                }
                errorBytes += Array(data)
            }
        }.start()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The lines printed so far.
    var lines: [Line] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    var standardOutput: String { lines.map { $0.text + "\n" }.joined() }

    var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorBytes, as: UTF8.self)
    }

    /// Waits for the first line from `index` on that `matches` accepts, and returns its index
    /// (nil after `timeout`, or when the command ended without printing it).
    @discardableResult
    func waitForLine(from index: Int = 0, timeout: Duration = .seconds(240),
                     _ matches: (String) -> Bool) -> Int? {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if received.count > index, let found = received[index...].firstIndex(where: { matches($0.text) }) { return found }
            if outputEnded { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Sends `signal` and waits for the end: the exit status (128 + the signal when it killed
    /// the command).
    func stop(_ signal: Int32 = SIGINT) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        condition.lock()
        while !outputEnded || !errorEnded { condition.wait() }
        condition.unlock()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}

/// One HTTP exchange over the loopback address, written by hand so that a request can say
/// what a browser would never send (`/../`).
struct HTTPExchange {
    var status: Int
    var headers: [String: String]
    var body: String

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Sends `request` as it is (an HTTP/1.0 request ends the connection after the answer) and
    /// reads the answer to its end.
    static func send(_ request: String, port: UInt16) throws -> HTTPExchange {
        let connection = try connect(port: port)
        defer { close(connection) }
        _ = request.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no answer: \(text)") }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPExchange(status: status, headers: headers, body: String(text[split.upperBound...]))
    }

    static func get(_ path: String, port: UInt16) throws -> HTTPExchange {
        try send("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    }

    /// A connected socket, reads timing out after 30 s.
    static func connect(port: UInt16) throws -> Int32 {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(connection)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return connection
    }
}

/// A stream of server-sent events, read as it comes.
final class EventStream {
    private let connection: Int32
    private var text = ""

    init(port: UInt16, path: String) throws {
        connection = try HTTPExchange.connect(port: port)
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) }
    }

    deinit { close(connection) }

    /// Reads until what has come holds `needle` (after what earlier waits consumed); false
    /// when the stream ends, stays silent for 30 s, or has not said it within `timeout` (the
    /// server's keep-alive comments would otherwise keep a wait going for ever).
    func waitFor(_ needle: String, timeout: Duration = .seconds(120)) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = text.range(of: needle) {
                text = String(text[found.upperBound...])
                return true
            }
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return false }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return false
    }
}
