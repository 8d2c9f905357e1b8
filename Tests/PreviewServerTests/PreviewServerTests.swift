@testable import PreviewServer
import Foundation
import TestSupport
import Testing

/// A small site: an index, a lesson, a stylesheet, a hidden marker, a file outside it and a
/// link that leads there.
func previewSite() throws -> (root: URL, site: String) {
    let root = temporaryFolder("preview")
    let resolved = realpath(root.path, nil)!
    defer { free(resolved) }
    let real = String(cString: resolved)
    let site = real + "/site"
    try FileManager.default.createDirectory(atPath: site + "/assets", withIntermediateDirectories: true)
    try "<!DOCTYPE html><html><body><h1>Index</h1></body></html>".write(toFile: site + "/index.html", atomically: true, encoding: .utf8)
    try "<p>lesson</p>".write(toFile: site + "/01-a.html", atomically: true, encoding: .utf8)
    try "body{}".write(toFile: site + "/assets/style.css", atomically: true, encoding: .utf8)
    try "marker".write(toFile: site + "/.coursebook-site", atomically: true, encoding: .utf8)
    try "TOP SECRET".write(toFile: real + "/secret.txt", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: site + "/out.txt", withDestinationPath: real + "/secret.txt")
    try FileManager.default.createSymbolicLink(atPath: site + "/same.html", withDestinationPath: site + "/01-a.html")
    return (root, site)
}

struct SiteRequestTests {
    @Test func onlyFilesInsideTheSite() throws {
        let (root, site) = try previewSite()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(SiteRequest.file(for: "/", in: site) == site + "/index.html")
        #expect(SiteRequest.file(for: "/01-a.html", in: site) == site + "/01-a.html")
        #expect(SiteRequest.file(for: "//assets/./style.css", in: site) == site + "/assets/style.css")
        #expect(SiteRequest.file(for: "/same.html", in: site) == site + "/01-a.html", "a link inside the site is followed")
        for way in ["/../secret.txt", "/assets/../index.html", "/out.txt", "/.coursebook-site", "/assets",
                    "/nothing.html", "/a\\..\\secret.txt", "/01-a.html\0.png"] {
            #expect(SiteRequest.file(for: way, in: site) == nil, "\(way)")
        }
    }

    @Test(arguments: [("a.html", "text/html; charset=utf-8"), ("a.CSS", "text/css; charset=utf-8"),
                      ("a.js", "text/javascript; charset=utf-8"), ("a.svg", "image/svg+xml"), ("a.png", "image/png"),
                      ("pagefind.pf_meta", "application/octet-stream"), ("a.json", "application/json"), ("a.wasm", "application/wasm")])
    func contentTypes(name: String, type: String) {
        #expect(SiteRequest.contentType(of: name) == type)
    }
}

struct PreviewServerTests {
    /// GET and HEAD only; pages carry the reload script, other files are sent as they are;
    /// while the check fails every page of the site is its findings.
    @Test func answers() throws {
        let (root, site) = try previewSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try PreviewServer(root: site, port: 0, title: "T & <U>")
        defer { server.stop() }
        #expect(server.port > 0)

        let post = server.answer(method: "POST", path: "/")
        #expect(post.status == 405)
        #expect(post.headers.map { "\($0.0): \($0.1)" } == ["Allow: GET, HEAD"])

        let pending = server.answer(method: "GET", path: "/")
        #expect(pending.status == 200)
        #expect(String(decoding: pending.body, as: UTF8.self).contains("Checking the course…"))

        server.show(.site)
        let index = server.answer(method: "GET", path: "/")
        #expect(index.type == "text/html; charset=utf-8")
        #expect(String(decoding: index.body, as: UTF8.self).hasPrefix("<!DOCTYPE html><html><body><h1>Index</h1><script>"))
        #expect(String(decoding: index.body, as: UTF8.self).contains("new EventSource(\"/_coursebook/events?since=1\")"))
        #expect(String(decoding: index.body, as: UTF8.self).hasSuffix("</script>\n</body></html>"))
        let css = server.answer(method: "HEAD", path: "/assets/style.css")
        #expect(css.status == 200 && css.type == "text/css; charset=utf-8" && css.body == Array("body{}".utf8))
        let missing = server.answer(method: "GET", path: "/../secret.txt")
        #expect(missing.status == 404)
        #expect(!String(decoding: missing.body, as: UTF8.self).contains("TOP SECRET"))

        server.show(.failure(title: "The check failed", text: "c/01-a.md:3:1: error: <differs>\n"))
        let failed = server.answer(method: "GET", path: "/01-a.html")
        #expect(failed.status == 200)
        let page = String(decoding: failed.body, as: UTF8.self)
        #expect(page.contains("<h1>The check failed</h1>") && page.contains("c/01-a.md:3:1: error: &lt;differs&gt;"))
        #expect(page.contains("T &amp; &lt;U&gt;"))
        #expect(server.answer(method: "GET", path: "/nothing.html").status == 404)
        #expect(server.answer(method: "GET", path: "/assets/style.css").body == Array("body{}".utf8), "assets are still sent")
    }

    /// A stream greets at once, then sends `reload` when the content changes after the page
    /// it belongs to was served, and ends when the server stops.
    @Test func eventStreams() throws {
        let (root, site) = try previewSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try PreviewServer(root: site, port: 0, title: "T")
        server.show(.site)
        let stream = server.eventStream(since: 0)
        #expect(stream.next() == Array("retry: 500\n\n".utf8))
        #expect(stream.next() == Array("event: reload\ndata: 1\n\n".utf8), "the page was served before the last change")
        Thread {
            usleep(100_000)
            server.show(.failure(title: "x", text: "y"))
        }.start()
        #expect(stream.next() == Array("event: reload\ndata: 2\n\n".utf8))
        Thread {
            usleep(100_000)
            server.stop()
        }.start()
        #expect(stream.next() == nil)
    }

    @Test func aTakenPortIsAnError() throws {
        let (root, site) = try previewSite()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try PreviewServer(root: site, port: 0, title: "T")
        defer { first.stop() }
        #expect(throws: PreviewServer.StartError.self) { try PreviewServer(root: site, port: first.port, title: "T") }
    }
}

/// A socket connected to 127.0.0.1:`port`, reads timing out after `seconds`.
func connectedSocket(port: UInt16, seconds: Int = 10) throws -> Int32 {
    let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(connection)
        throw PreviewServer.StartError(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
    }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return connection
}

func send(_ text: String, to connection: Int32) -> Bool {
    text.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) } == text.utf8.count
}

/// Everything the server sends until it closes the connection (or a read times out).
func readAll(_ connection: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(connection, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The status line of the answer to one request (`Connection: close`), or what went wrong.
func statusLine(_ request: String, port: UInt16) -> String {
    guard let connection = try? connectedSocket(port: port) else { return "no connection" }
    defer { close(connection) }
    guard send(request, to: connection) else { return "not sent" }
    let answer = readAll(connection)
    return answer.components(separatedBy: "\r\n").first.flatMap { $0.isEmpty ? nil : $0 } ?? "no answer"
}

/// Whether the server has closed the connection: a read sees its end (or an error) within
/// `seconds`, rather than timing out.
func closedByServer(_ connection: Int32, within seconds: Int) -> Bool {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var byte: UInt8 = 0
    let count = read(connection, &byte, 1)
    return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
}

/// The server over real sockets: only its own Host is answered; connections that wait, idle or
/// trickle are ended; a fresh request is answered whatever holds connections open.
@Suite(.serialized) struct PreviewConnectionTests {
    func server(_ limits: ConnectionLimits = ConnectionLimits()) throws -> (PreviewServer, URL) {
        let (root, site) = try previewSite()
        let server = try PreviewServer(root: site, port: 0, title: "T", limits: limits)
        server.show(.site)
        return (server, root)
    }

    @Test func ownHostsOnly() {
        #expect(PreviewServer.isOwnHost("127.0.0.1:8000", port: 8000))
        #expect(PreviewServer.isOwnHost("localhost:8000", port: 8000))
        #expect(PreviewServer.isOwnHost("LocalHost:8000", port: 8000))
        #expect(PreviewServer.isOwnHost("localhost", port: 80))
        for other in ["evil.example:8000", "127.0.0.1", "localhost", "127.0.0.1:8001", "localhost.:8000",
                      "[::1]:8000", "127.0.0.1:8000.evil.example", "attacker.localhost:8000", ""] {
            #expect(!PreviewServer.isOwnHost(other, port: 8000), "\(other)")
        }
        #expect(!PreviewServer.isOwnHost(nil, port: 8000))
    }

    /// DNS rebinding: a page of another site, its name made to lead to 127.0.0.1, sends its own
    /// name as `Host` and gets 403, for pages and for the event stream alike.
    @Test func anotherHostIsForbidden() throws {
        let (server, root) = try server()
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let port = server.port
        func get(_ path: String, host: String?) -> String {
            statusLine("GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n", port: port)
        }
        #expect(get("/", host: "127.0.0.1:\(port)") == "HTTP/1.1 200 OK")
        #expect(get("/01-a.html", host: "localhost:\(port)") == "HTTP/1.1 200 OK")
        #expect(get("/", host: "evil.example:\(port)") == "HTTP/1.1 403 Forbidden")
        #expect(get("/assets/style.css", host: "evil.example") == "HTTP/1.1 403 Forbidden")
        #expect(get(PreviewServer.eventsPath, host: "evil.example:\(port)") == "HTTP/1.1 403 Forbidden")
        #expect(statusLine("GET / HTTP/1.0\r\n\r\n", port: port) == "HTTP/1.1 403 Forbidden", "no Host at all")

        let connection = try connectedSocket(port: port)
        defer { close(connection) }
        #expect(send("GET /01-a.html HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n", to: connection))
        let answer = readAll(connection)
        #expect(!answer.contains("lesson") && answer.contains("answers only http://127.0.0.1:\(port)/"), "\(answer)")
    }

    /// 1,100 connections that each sent half a request, held open: a fresh request is answered
    /// at once, and no more than `waiting` of them are kept.
    @Test func aFreshRequestIsAnsweredWhateverWaits() throws {
        let (server, root) = try server()
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let port = server.port
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<1100 {
            let connection = try connectedSocket(port: port)
            held.append(connection)
            #expect(send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ", to: connection))
        }
        let asked = ContinuousClock.now
        #expect(statusLine("GET /01-a.html HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port) == "HTTP/1.1 200 OK")
        #expect(ContinuousClock.now - asked < .seconds(3), "answered after \(ContinuousClock.now - asked)")
        let waiting = server.connections.counts()[.waiting, default: 0]
        #expect(waiting <= ConnectionLimits().waiting, "\(waiting) connections kept waiting")
    }

    /// A connection that sends nothing is closed after the idle timeout; one that trickles a
    /// byte at a time (never idle) after the request deadline.
    @Test func idleAndTricklingConnectionsAreClosed() throws {
        var limits = ConnectionLimits()
        limits.idleSeconds = 1
        limits.requestDeadline = .seconds(2)
        let (server, root) = try server(limits)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let port = server.port
        let idle = try connectedSocket(port: port)
        defer { close(idle) }
        #expect(closedByServer(idle, within: 4), "an idle connection is closed after about a second")

        let trickle = try connectedSocket(port: port)
        defer { close(trickle) }
        let started = ContinuousClock.now
        var closed = false
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        for byte in request {
            var one = byte
            if write(trickle, &one, 1) != 1 { closed = true; break }
            usleep(300_000)
            var pending: UInt8 = 0
            if recv(trickle, &pending, 1, Int32(MSG_DONTWAIT)) == 0 { closed = true; break }
            if ContinuousClock.now - started > .seconds(10) { break }
        }
        #expect(closed, "a trickling connection is closed")
        #expect(ContinuousClock.now - started < .seconds(5), "closed after \(ContinuousClock.now - started)")
    }

    /// Past the number of event streams the limits allow, a new one ends the oldest (its page
    /// reconnects); the others go on.
    @Test func streamsAreCapped() throws {
        var limits = ConnectionLimits()
        limits.streams = 2
        let (server, root) = try server(limits)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let port = server.port
        var streams: [Int32] = []
        defer { streams.forEach { close($0) } }
        for _ in 0..<3 {
            let connection = try connectedSocket(port: port)
            streams.append(connection)
            #expect(send("GET \(PreviewServer.eventsPath) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", to: connection))
            usleep(200_000)
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(read(streams[1], &buffer, buffer.count) > 0, "the second stream is open")
        let first = readAll(streams[0])
        #expect(first.contains("retry: 500"), "\(first)")
        #expect(server.connections.counts()[.streaming] == 2)
    }
}

struct ConnectionPolicyTests {
    let start = ContinuousClock.now

    func connection(_ state: OpenConnection.State, _ seconds: Double, _ number: Int) -> OpenConnection {
        OpenConnection(state: state, since: start + .milliseconds(Int(seconds * 1000)), number: number)
    }

    @Test func oldestWaitingMakesRoom() {
        var limits = ConnectionLimits()
        limits.waiting = 2
        let open = ["a": connection(.waiting, 0, 1), "b": connection(.waiting, 1, 2), "c": connection(.answering, 0, 3),
                    "new": connection(.waiting, 2, 4)]
        #expect(ConnectionPolicy.toEnd(open, keeping: "new", now: start + .seconds(2), limits: limits) == ["a"])
    }

    @Test func overdueRequestsEndWhateverTheCount() {
        let open = ["a": connection(.waiting, 0, 1), "b": connection(.waiting, 9, 2), "c": connection(.streaming, 0, 3),
                    "d": connection(.ending, 0, 4)]
        #expect(ConnectionPolicy.toEnd(open, keeping: nil, now: start + .seconds(11), limits: ConnectionLimits()) == ["a"])
    }

    @Test func streamsAndTheTotalAreCapped() {
        var limits = ConnectionLimits()
        limits.streams = 1
        limits.total = 3
        let open = ["s1": connection(.streaming, 0, 1), "s2": connection(.streaming, 1, 2), "a": connection(.answering, 0.5, 3),
                    "w": connection(.waiting, 2, 4), "new": connection(.waiting, 3, 5)]
        // s1 goes for the stream limit; then four are left, one past the total: the oldest, a.
        #expect(ConnectionPolicy.toEnd(open, keeping: "new", now: start + .seconds(3), limits: limits) == ["s1", "a"])
    }
}
