internal import CMicroHTTPD
import CourseFiles
import CourseModel
import Foundation
#if canImport(Glibc)
import Glibc
import HTMLText
#endif

/// `coursebook serve`'s HTTP server: a built site on 127.0.0.1, through GNU libmicrohttpd (one
/// thread per connection). It answers only requests whose `Host` is its own address
/// (`127.0.0.1:PORT` or `localhost:PORT`; 403 for any other, so that a page of another site
/// whose name is made to lead here, DNS rebinding, cannot read the course), GET and HEAD only
/// (405 for anything else), reads only inside the site folder (`SiteRequest`), and adds to every
/// HTML page it sends a few lines of script that listen for reload events
/// (`/_coursebook/events`, server-sent events) — only here: the site on disk is the one `build`
/// publishes. While the last check failed, every page is the check's findings instead of a
/// stale site. Connections that wait, trickle or pile up are ended by `ConnectionLimits`, so
/// that a fresh request is always answered.
package final class PreviewServer: @unchecked Sendable {
    /// What pages show.
    package enum Content: Sendable, Equatable {
        /// Before the first check ends: a page that says so, and reloads when it does.
        case pending
        /// The site in the folder.
        case site
        /// The last check failed: its findings, as text.
        case failure(title: String, text: String)
    }

    /// Why the server could not start.
    package struct StartError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The site folder.
    package let root: String
    /// The port it listens on (the one asked for, or the one the system gave for 0).
    package let port: UInt16
    /// The course's title, for the pages of its own.
    private let title: String

    /// Guards `content`, `generation` and `stopping`; event streams wait on it.
    private let condition = NSCondition()
    private var content: Content = .pending
    /// Counts the changes of content: a page knows the one it was served at.
    private var generation = 0
    private var stopping = false
    private var daemon: OpaquePointer?
    /// What each connection is doing, and the limits that end some.
    let connections: OpenConnections

    /// Where reload events are sent.
    package static let eventsPath = "/_coursebook/events"

    /// Starts listening on 127.0.0.1:`port` (0 for any free port).
    package init(root: String, port: UInt16, title: String, limits: ConnectionLimits = ConnectionLimits()) throws(StartError) {
        self.root = root
        self.title = title
        connections = OpenConnections(limits: limits)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw StartError(description: "no socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, SOMAXCONN) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw StartError(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)

        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let started = coursebook_start_daemon(listener, limits.idleSeconds, limits.hardLimit, answerRequest,
                                                    noticeConnection, noticeCompletion, context) else {
            close(listener)
            throw StartError(description: "libmicrohttpd could not start on 127.0.0.1:\(self.port)")
        }
        daemon = started
        let connections = self.connections
        Thread { connections.sweepUntilStopped() }.start()
    }

    deinit { stop() }

    /// Stops listening, ends every event stream and waits for the connections' threads.
    package func stop() {
        condition.lock()
        stopping = true
        let running = daemon
        daemon = nil
        condition.broadcast()
        condition.unlock()
        connections.stop()
        if let running { MHD_stop_daemon(running) }
    }

    /// Shows `content` from now on and tells every open page to reload.
    package func show(_ new: Content) {
        condition.lock()
        content = new
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    private func current() -> (Content, Int) {
        condition.lock()
        defer { condition.unlock() }
        return (content, generation)
    }

    // MARK: Answers

    /// An answer: status, headers, body.
    struct Answer {
        var status: UInt32
        var type: String
        var body: [UInt8]
        var headers: [(String, String)] = []
    }

    /// Whether a request's `Host` names this server as the browser on this machine reaches it:
    /// `127.0.0.1:PORT` or `localhost:PORT` (a name's case aside; without a port only when the
    /// port is 80). Any other name is a page of some other site whose name was made to lead
    /// here (DNS rebinding), and a request without one was not sent by a browser.
    package static func isOwnHost(_ host: String?, port: UInt16) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return ["127.0.0.1", "localhost"].contains { name in host == "\(name):\(port)" || (port == 80 && host == name) }
    }

    /// The answer to a request whose `Host` is not this server's.
    func refusal() -> Answer {
        Answer(status: 403, type: "text/plain; charset=utf-8", body: Array("""
            403 forbidden: the preview answers only http://127.0.0.1:\(port)/ and http://localhost:\(port)/

            """.utf8))
    }

    /// The answer to a request that is not an event stream: a file of the site (an HTML page
    /// with the reload script), or, while the check has not passed, the server's own page in
    /// place of every page of the site.
    func answer(method: String, path: String) -> Answer {
        guard method == "GET" || method == "HEAD" else {
            return Answer(status: 405, type: "text/plain; charset=utf-8",
                          body: Array("405 method not allowed: the preview answers GET and HEAD\n".utf8),
                          headers: [("Allow", "GET, HEAD")])
        }
        let (content, generation) = current()
        let file = SiteRequest.file(for: path, in: root)
        let asksForPage = file.map { SiteRequest.contentType(of: $0).hasPrefix("text/html") }
            ?? (path.hasSuffix("/") || path.hasSuffix(".html"))
        if asksForPage {
            switch content {
            case .pending:
                return page(status: file == nil ? 404 : 200, ownPage(
                    heading: "Checking the course…", text: "This page opens when the first check ends."), generation: generation)
            case .failure(let heading, let text):
                return page(status: file == nil ? 404 : 200, ownPage(heading: heading, text: text), generation: generation)
            case .site:
                break
            }
        }
        guard let file, let bytes = readFile(atPath: file) else {
            return page(status: 404, ownPage(heading: "404: not in the site", text: "No file of the site is at \(path)."),
                        generation: generation)
        }
        let type = SiteRequest.contentType(of: file)
        guard type.hasPrefix("text/html") else { return Answer(status: 200, type: type, body: bytes) }
        return page(status: 200, String(decoding: bytes, as: UTF8.self), generation: generation)
    }

    /// An HTML answer, with the reload script.
    private func page(status: UInt32, _ html: String, generation: Int) -> Answer {
        Answer(status: status, type: "text/html; charset=utf-8",
               body: Array(withReloadScript(html, generation: generation).utf8))
    }

    /// A page of the server's own: the course's title, a heading, text as it is.
    private func ownPage(heading: String, text: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escapeHTML(heading)) · \(escapeHTML(title))</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}
        pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:1rem;border-left:4px solid #b00}</style>
        </head><body><main><p>\(escapeHTML(title)) · preview</p><h1>\(escapeHTML(heading))</h1>
        <pre>\(escapeHTML(text))</pre></main></body></html>

        """
    }

    /// The page with the preview's script before its `</body>` (or at its end): it reloads the
    /// page when the server says that what it shows has changed since `generation`.
    func withReloadScript(_ html: String, generation: Int) -> String {
        let script = """
            <script>/* coursebook serve: reload after each rebuild (never in a published site) */
            new EventSource("\(Self.eventsPath)?since=\(generation)").addEventListener("reload", () => location.reload());
            </script>

            """
        guard let end = html.range(of: "</body>", options: .backwards) else { return html + script }
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: script)
    }

    // MARK: Event streams

    /// One open event stream: the generation its page was served at.
    final class EventStream {
        let server: PreviewServer
        var seen: Int
        var greeted = false
        /// Ended by the connection limits (a newer page's stream took its place).
        private var ended = false

        init(server: PreviewServer, seen: Int) {
            self.server = server
            self.seen = seen
        }

        /// The next bytes of the stream: at once a `retry` line, then a `reload` event when the
        /// content changes, a comment every 15 s to notice a page that went away; nil when the
        /// server stops.
        func next() -> [UInt8]? {
            if !greeted {
                greeted = true
                return Array("retry: 500\n\n".utf8)
            }
            let condition = server.condition
            condition.lock()
            defer { condition.unlock() }
            let deadline = Date(timeIntervalSinceNow: 15)
            while !server.stopping, !ended, server.generation <= seen {
                if !condition.wait(until: deadline) { return Array(": still here\n\n".utf8) }
            }
            if server.stopping || ended { return nil }
            seen = server.generation
            return Array("event: reload\ndata: \(seen)\n\n".utf8)
        }

        /// Ends the stream: its next answer is the end, and its page reconnects.
        func end() {
            server.condition.lock()
            ended = true
            server.condition.broadcast()
            server.condition.unlock()
        }
    }

    func eventStream(since: Int?) -> EventStream {
        let (_, generation) = current()
        return EventStream(server: self, seen: since ?? generation)
    }
}

// MARK: libmicrohttpd's callbacks

/// The access handler: every request, on its connection's thread, once its head has come.
private let answerRequest: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return MHD_Result.NO }
    let server = Unmanaged<PreviewServer>.fromOpaque(context).takeUnretainedValue()
    let key = UInt(bitPattern: connection)
    server.connections.answering(key)
    let path = url.map { String(cString: $0) } ?? "/"
    let verb = method.map { String(cString: $0) } ?? ""
    let host = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Host").map { String(cString: $0) }

    if PreviewServer.isOwnHost(host, port: server.port), path == PreviewServer.eventsPath, verb == "GET" {
        let since = MHD_lookup_connection_value(connection, MHD_ValueKind.GET_ARGUMENT_KIND, "since").flatMap { Int(String(cString: $0)) }
        let events = server.eventStream(since: since)
        let stream = Unmanaged.passRetained(events).toOpaque()
        guard let response = MHD_create_response_from_callback(UInt64.max, 1024, readEvents, stream, freeEvents) else {
            Unmanaged<PreviewServer.EventStream>.fromOpaque(stream).release()
            return MHD_Result.NO
        }
        MHD_add_response_header(response, "Content-Type", "text/event-stream")
        MHD_add_response_header(response, "Cache-Control", "no-store")
        // A stream is silent between its comments for longer than the idle timeout, and is
        // capped by number instead; once it ends, so does its connection.
        MHD_add_response_header(response, "Connection", "close")
        _ = coursebook_connection_timeout(connection, 0)
        server.connections.streaming(key, events)
        let queued = MHD_queue_response(connection, 200, response)
        MHD_destroy_response(response)
        return queued
    }

    let reply = PreviewServer.isOwnHost(host, port: server.port) ? server.answer(method: verb, path: path) : server.refusal()
    let response = reply.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let response else { return MHD_Result.NO }
    MHD_add_response_header(response, "Content-Type", reply.type)
    MHD_add_response_header(response, "Cache-Control", "no-store")
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    for (name, value) in reply.headers { MHD_add_response_header(response, name, value) }
    let queued = MHD_queue_response(connection, reply.status, response)
    MHD_destroy_response(response)
    return queued
}

/// A connection opened or closed (on the listening thread, before its socket is closed).
private let noticeConnection: MHD_NotifyConnectionCallback = { context, connection, _, event in
    guard let context, let connection else { return }
    let server = Unmanaged<PreviewServer>.fromOpaque(context).takeUnretainedValue()
    let key = UInt(bitPattern: connection)
    switch event {
    case .CONNECTION_NOTIFY_STARTED: server.connections.started(key, socket: coursebook_connection_socket(connection))
    default: server.connections.closed(key)
    }
}

/// A request answered (or given up): its connection waits for the next one.
private let noticeCompletion: MHD_RequestCompletedCallback = { context, connection, _, _ in
    guard let context, let connection else { return }
    let server = Unmanaged<PreviewServer>.fromOpaque(context).takeUnretainedValue()
    server.connections.completed(UInt(bitPattern: connection))
}

/// An event stream's next bytes (blocking on its own thread until there are some).
private let readEvents: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return -2 }
    let stream = Unmanaged<PreviewServer.EventStream>.fromOpaque(context).takeUnretainedValue()
    guard let bytes = stream.next() else { return -1 }
    let count = min(bytes.count, capacity)
    bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count) }
    return count
}

private let freeEvents: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<PreviewServer.EventStream>.fromOpaque(context).release()
}
