import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through the DevTools protocol over a pipe (`--remote-debugging-pipe`:
/// commands on its fd 3, replies on its fd 4, each a JSON message ended by a NUL). A test opens
/// a page and asks it questions the way a reader's clicks would; the pages themselves carry no
/// script.
final class Browser {
    struct Failure: Error, CustomStringConvertible { var description: String }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: String
    private var pending: [UInt8] = []
    private var nextID = 0
    private var session = ""

    init(_ executable: String) throws {
        var commands: [Int32] = [0, 0], replies: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&replies) == 0 else { throw Failure(description: "no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replies[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        profile = NSTemporaryDirectory() + "coursebook-browser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let arguments = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                         "--user-data-dir=\(profile)", "about:blank"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(commands[0])
        close(replies[1])
        guard status == 0 else { throw Failure(description: "cannot start \(executable)") }
        self.pid = pid
        toBrowser = commands[1]
        fromBrowser = replies[0]
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(toBrowser)
        close(fromBrowser)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Opens `url` in a new tab and waits until it has loaded.
    func open(_ url: URL) throws {
        let created = try send("Target.createTarget", ["url": url.absoluteString])
        guard let target = created["targetId"] as? String,
              let id = try send("Target.attachToTarget", ["targetId": target, "flatten": true])["sessionId"] as? String else {
            throw Failure(description: "cannot open \(url)")
        }
        session = id
        // The new tab starts on about:blank, which is "complete" at once: wait for the page.
        for _ in 0..<400 {
            if try evaluate("location.href") as? String == url.absoluteString,
               try evaluate("document.readyState") as? String == "complete" { return }
            usleep(25_000)
        }
        throw Failure(description: "\(url) did not load")
    }

    /// Lays the open page out as a screen `width` CSS pixels wide would (a phone when
    /// `mobile`: touch, no hover).
    func setViewport(width: Int, height: Int = 900, mobile: Bool = false) throws {
        _ = try send("Emulation.setDeviceMetricsOverride",
                     ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile], session: session)
        _ = try evaluate("document.body.getBoundingClientRect().width")
    }

    /// Lays the open page out in the reader's dark (or light) colours, as a system set to dark
    /// mode would ask for them (`prefers-color-scheme`).
    func setDark(_ dark: Bool) throws {
        _ = try send("Emulation.setEmulatedMedia",
                     ["features": [["name": "prefers-color-scheme", "value": dark ? "dark" : "light"]]], session: session)
    }

    /// Presses and releases a key as a keyboard would (`/`, `Escape`, `ArrowDown`, `Tab` ...):
    /// the page sees trusted events, as from a reader.
    func press(_ key: String) throws {
        let codes: [String: (code: String, keyCode: Int)] = [
            "/": ("Slash", 191), "Escape": ("Escape", 27), "ArrowDown": ("ArrowDown", 40), "ArrowUp": ("ArrowUp", 38),
            "Tab": ("Tab", 9), "Enter": ("Enter", 13),
        ]
        let known = codes[key] ?? (key, 0)
        var down: [String: Any] = ["type": "keyDown", "key": key, "code": known.code, "windowsVirtualKeyCode": known.keyCode]
        if key.count == 1 { down["text"] = key }
        _ = try send("Input.dispatchKeyEvent", down, session: session)
        _ = try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": known.code, "windowsVirtualKeyCode": known.keyCode],
                     session: session)
    }

    /// Types text into what has the focus, as a keyboard would.
    func type(_ text: String) throws {
        _ = try send("Input.insertText", ["text": text], session: session)
    }

    /// Waits until a JavaScript expression is true in the open page (a search's results, say).
    func wait(until expression: String, seconds: Double = 20) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try evaluate("Boolean(\(expression))") as? Bool == true { return }
            usleep(50_000)
        }
        throw Failure(description: "never true: \(expression)")
    }

    /// On the open search page of a site, searches for `query` as a reader typing it would, and
    /// waits for the page to say it searched: the pages of the results, in order.
    func searchResults(for query: String) throws -> [String] {
        let quoted = String(reflecting: query)
        _ = try evaluate("""
            (() => { const field = document.getElementById('search-field'); field.value = \(quoted);
                     field.dispatchEvent(new Event('input')); })()
            """)
        try wait(until: "document.querySelector('.search-status').textContent.includes(\(quoted))")
        return try evaluate("[...document.querySelectorAll('.search-result h2 a')].map((a) => a.getAttribute('href'))") as? [String] ?? []
    }

    /// The landmarks of the open page as assistive technology gets them (Chromium's
    /// accessibility tree): each role with its name.
    func landmarks() throws -> [(role: String, name: String)] {
        let landmarkRoles: Set<String> = ["banner", "navigation", "main", "contentinfo", "complementary", "region",
                                          "search", "form"]
        return try accessibilityNodes().filter { landmarkRoles.contains($0.role) }
    }

    /// Every node of the open page's accessibility tree that is not ignored: role and name.
    func accessibilityNodes() throws -> [(role: String, name: String)] {
        let tree = try send("Accessibility.getFullAXTree", [:], session: session)
        return (tree["nodes"] as? [[String: Any]] ?? []).compactMap { node in
            guard node["ignored"] as? Bool != true,
                  let role = (node["role"] as? [String: Any])?["value"] as? String else { return nil }
            return (role, (node["name"] as? [String: Any])?["value"] as? String ?? "")
        }
    }

    /// The value of a JavaScript expression in the open page.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true],
                              session: session)
        return (result["result"] as? [String: Any])?["value"]
    }

    private func send(_ method: String, _ params: [String: Any], session: String? = nil) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session, !session.isEmpty { message["sessionId"] = session }
        let bytes = Array(try JSONSerialization.data(withJSONObject: message)) + [0]
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the browser closed its pipe") }
            written += count
        }
        while true {
            let reply = try readMessage()
            guard reply["id"] as? Int == id else { continue }
            if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func readMessage() throws -> [String: Any] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = pending.firstIndex(of: 0) {
                let message = Array(pending[..<end])
                pending.removeFirst(end + 1)
                return (try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any]) ?? [:]
            }
            let count = read(fromBrowser, &buffer, buffer.count)
            guard count > 0 else { throw Failure(description: "the browser closed its pipe") }
            pending += buffer[0..<count]
        }
    }
}
