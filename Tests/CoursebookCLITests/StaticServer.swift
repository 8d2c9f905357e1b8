import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder served over HTTP on the loopback address, for the pages a browser may not load
/// from disk: Pagefind's search fetches its index and imports a module, which browsers refuse
/// to a page opened from `file://`. GET only, one connection at a time, files only; it stops
/// when the value goes away.
final class StaticServer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let root: URL
    private let listener: Int32
    let port: UInt16
    private let done = DispatchSemaphore(value: 0)
    private let servedLock = NSLock()
    private var servedPaths: [String] = []

    /// The paths of the files served so far (a page's, and its scripts' and workers'), in order.
    var served: [String] {
        servedLock.lock()
        defer { servedLock.unlock() }
        return servedPaths
    }

    init(root: URL) throws {
        self.root = root.standardizedFileURL
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw Failure(description: "cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        let thread = Thread { [self] in
            serve()
            done.signal()
        }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        done.wait()
    }

    /// The address of `path` inside the folder.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)), request.count < 65536 {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0] == "GET" else { return respond(connection, status: "405 Method Not Allowed", type: "text/plain", body: []) }
        let path = (line[1].split(separator: "?").first.map(String.init) ?? "/").removingPercentEncoding ?? "/"
        let file = root.appendingPathComponent(path == "/" ? "index.html" : String(path.dropFirst())).standardizedFileURL
        guard file.path.hasPrefix(root.path + "/"), let body = FileManager.default.contents(atPath: file.path) else {
            return respond(connection, status: "404 Not Found", type: "text/plain", body: Array("not found".utf8))
        }
        servedLock.lock()
        servedPaths.append(String(path.dropFirst()))
        servedLock.unlock()
        respond(connection, status: "200 OK", type: Self.type(of: file.pathExtension), body: Array(body))
    }

    private func respond(_ connection: Int32, status: String, type: String, body: [UInt8]) {
        let head = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            written += count
        }
    }

    private static func type(of fileExtension: String) -> String {
        switch fileExtension {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css"
        case "js": "text/javascript"
        case "json": "application/json"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }
}

private extension [UInt8] {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
