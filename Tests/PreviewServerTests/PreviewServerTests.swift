@testable import PreviewServer
import Foundation
import TestSupport
import Testing

/// A small site: an index, a lesson, a stylesheet, a hidden marker, a file outside it and a
/// link that leads there.
func previewSite() throws -> (root: URL, site: String) {
    let root = temporaryFolder("preview")
    let real = String(cString: realpath(root.path, nil))
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
