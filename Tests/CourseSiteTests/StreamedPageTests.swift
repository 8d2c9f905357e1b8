import CourseFiles
@testable import CourseSite
import Foundation
import TestSupport
import Testing

/// The whole course on one page is never held whole: deferred HTML made when the template
/// reaches it, a template rendered piece by piece, pieces gathered into chunks, and a sink that
/// writes the chunks as they come.
struct StreamedPageTests {
    let schema = TemplateSchema([
        "title": .text, "body": .html, "flag": .bool,
        "items": .list(TemplateSchema(["name": .text, "part": .html])),
    ])

    /// A deferred value that counts how often it is made.
    final class Maker: @unchecked Sendable {
        private let made = Locked(0)
        var count: Int { made.withLock { $0 } }

        func value(_ html: String) -> TemplateValue {
            .deferred(DeferredHTML(isEmpty: html.isEmpty, making: { [made] in
                made.withLock { $0 += 1 }
                return html
            }))
        }
    }

    @Test func deferredHTMLIsWrittenAsItIsWhereTheTemplateReachesIt() throws {
        let template = try Template(name: "t.html", text: "<h1>{{title}}</h1>{{body}}{{#each items}}[{{name}}{{part}}]{{/each}}",
                                    schema: schema)
        let maker = Maker()
        let values: TemplateRecord = [
            "title": .text("<T>"), "body": maker.value("<p>b & c</p>"), "flag": .bool(false),
            "items": .list([["name": .text("a"), "part": maker.value("<i>1</i>")],
                            ["name": .text("b"), "part": maker.value("")]]),
        ]
        #expect(template.render(values) == "<h1>&lt;T&gt;</h1><p>b & c</p>[a<i>1</i>][b]")
        #expect(maker.count == 3)
        // The same page as with the HTML given whole.
        let whole: TemplateRecord = [
            "title": .text("<T>"), "body": .html("<p>b & c</p>"), "flag": .bool(false),
            "items": .list([["name": .text("a"), "part": .html("<i>1</i>")], ["name": .text("b"), "part": .html("")]]),
        ]
        #expect(template.render(values) == template.render(whole))
    }

    /// `{{#if}}` asks a deferred value whether it is empty without making it, and answers as
    /// it would for the HTML given whole.
    @Test func ifAsksADeferredValueWithoutMakingIt() throws {
        let template = try Template(name: "t.html", text: "{{#if body}}yes{{else}}no{{/if}}", schema: schema)
        let maker = Maker()
        let base: TemplateRecord = ["title": .text(""), "flag": .bool(true), "items": .list([])]
        for html in ["<p>x</p>", ""] {
            var deferred = base, given = base
            deferred["body"] = maker.value(html)
            given["body"] = .html(html)
            #expect(template.render(deferred) == template.render(given))
        }
        #expect(template.render({ var values = base; values["body"] = maker.value("x"); return values }()) == "yes")
        #expect(maker.count == 0)
    }

    /// Rendered piece by piece, the pieces joined are the page rendered whole, and a deferred
    /// value's pieces go out as it makes them (none is gathered into one string).
    @Test func aTemplateRenderedPieceByPieceIsTheSamePage() throws {
        let template = try Template(name: "t.html", text: "<h1>{{title}}</h1>\n{{#each items}}<li>{{name}}</li>{{part}}\n{{/each}}{{#if flag}}end{{/if}}",
                                    schema: schema)
        let parts = DeferredHTML(isEmpty: false) { write in
            for piece in ["<b>", "one", "</b>"] { write(piece) }
        }
        let values: TemplateRecord = [
            "title": .text("Ş & ü"), "body": .html(""), "flag": .bool(true),
            "items": .list([["name": .text("x"), "part": .deferred(parts)], ["name": .text("<y>"), "part": .html("<hr>")]]),
        ]
        var pieces: [String] = []
        template.render(values) { pieces.append($0) }
        #expect(pieces.joined() == template.render(values))
        #expect(pieces.joined() == "<h1>Ş &amp; ü</h1>\n<li>x</li><b>one</b>\n<li>&lt;y&gt;</li><hr>\nend")
        #expect(pieces.contains("one"))
    }

    /// What `{{#if}}` asks of a deferred page is answered without rendering it, and agrees
    /// with rendering it.
    @Test(arguments: [
        "", "{{title}}", "{{body}}", "{{#each items}}{{part}}{{/each}}", "{{#each items}}{{name}}{{/each}}",
        "{{#if flag}}{{else}}{{body}}{{/if}}", "{{#if flag}}x{{/if}}", "{{! nothing }}", "{{#each items}}{{#if name}}-{{/if}}{{/each}}",
    ])
    func rendersNothingAgreesWithRendering(text: String) throws {
        let template = try Template(name: "t.html", text: text, schema: schema)
        let empty = Maker().value(""), full = Maker().value("<p>")
        let cases: [TemplateRecord] = [
            ["title": .text(""), "body": empty, "flag": .bool(false), "items": .list([])],
            ["title": .text("t"), "body": full, "flag": .bool(true), "items": .list([])],
            ["title": .text(""), "body": full, "flag": .bool(false),
             "items": .list([["name": .text(""), "part": empty], ["name": .text(""), "part": .html("")]])],
            ["title": .text(""), "body": empty, "flag": .bool(false),
             "items": .list([["name": .text(""), "part": empty], ["name": .text("n"), "part": full]])],
        ]
        for values in cases {
            #expect(template.rendersNothing(values) == template.render(values).isEmpty, "\(text)")
        }
    }

    /// Pieces are gathered into chunks of at least the chunk size (the last may be smaller),
    /// delivered as each fills: the text joined is the text written.
    @Test func piecesAreDeliveredInChunks() throws {
        var chunks: [[UInt8]] = []
        let writer = ChunkedWriter(chunkSize: 8) { chunk in chunks.append(Array(chunk)) }
        let pieces = ["<html>", "ş", "", "a long piece of twenty-nine b", "c", "d", "üç", "<", "/html>", "!"]
        var deliveredBefore: [Int] = []
        for piece in pieces {
            writer.write(piece)
            deliveredBefore.append(chunks.count)
        }
        #expect(deliveredBefore == [0, 1, 1, 2, 2, 2, 2, 2, 3, 3])
        try writer.finish()
        #expect(chunks.flatMap { $0 } == Array(pieces.joined().utf8))
        #expect(chunks.count == 4 && chunks.dropLast().allSatisfy { $0.count >= 8 } && chunks.last == Array("!".utf8))
        #expect(chunks.allSatisfy { $0.count < 8 + 29 + 1 }, "a chunk holds no more than one piece beyond the chunk size")
    }

    /// The first failure to deliver stops the delivering and is what `finish()` throws.
    @Test func theFirstFailureIsThrownAndNothingIsDeliveredAfterIt() throws {
        var delivered = 0
        let writer = ChunkedWriter(chunkSize: 4) { _ throws(SiteWriteError) in
            delivered += 1
            if delivered == 2 { throw SiteWriteError(folder: "site", message: "disk full") }
            if delivered > 2 { throw SiteWriteError(folder: "site", message: "later") }
        }
        for piece in ["abcd", "efgh", "ijkl", "mn"] { writer.write(piece) }
        #expect(delivered == 2)
        #expect(throws: SiteWriteError(folder: "site", message: "disk full")) { try writer.finish() }
    }

    @Test func theCollectingSinkKeepsAStreamedFileWhole() throws {
        let sink = CollectingSink(chunkSize: 3)
        try sink.add(SiteFile(path: "a.html", bytes: Array("a".utf8)))
        try sink.addStreamed(path: "print.html") { write in
            // The last piece is shorter than a chunk: it is kept until the end.
            for piece in ["<p>", "Ölçüm", " ", "ve ", "ağaç</p>", "\n"] { write(piece) }
        }
        #expect(sink.files == [SiteFile(path: "a.html", bytes: Array("a".utf8)),
                               SiteFile(path: "print.html", bytes: Array("<p>Ölçüm ve ağaç</p>\n".utf8))])
    }

    /// The staged site gets the streamed file as it was written, across many chunks.
    @Test func theStagingWritesAStreamedFileStraightToItsFile() throws {
        let root = temporaryFolder("streamed")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        let staging = try SiteStaging(destination: out)
        let pieces = (0..<3000).map { "<p id=\"p\($0)\">\(String(repeating: "ağaç ", count: $0 % 200))</p>\n" }
        try staging.addStreamed(path: "print.html") { write in pieces.forEach(write) }
        try staging.addStreamed(path: "nested/page.html") { write in write("inside") }
        try staging.commit()
        let written = try #require(FileManager.default.contents(atPath: out + "/print.html"))
        #expect(written.count > 2 * ChunkedWriter.chunkSize)
        #expect(Array(written) == Array(pieces.joined().utf8))
        #expect(try String(contentsOfFile: out + "/nested/page.html", encoding: .utf8) == "inside")
        #expect(SiteWriter.writtenFiles(out) == ["print.html", "nested/page.html"])
    }

    /// A streamed file that cannot be written fails as a file added whole does.
    @Test func aStreamedFileThatCannotBeWrittenFailsAsAnyFile() throws {
        let root = temporaryFolder("streamed-fails")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("site").path
        let staging = try SiteStaging(destination: out)
        defer { staging.discard() }
        try staging.add(SiteFile(path: "print.html", bytes: []))
        let whole = #expect(throws: SiteWriteError.self) { try staging.add(SiteFile(path: "print.html", bytes: [])) }
        var produced = false
        let streamed = #expect(throws: SiteWriteError.self) {
            try staging.addStreamed(path: "print.html") { _ in produced = true }
        }
        #expect(streamed == whole)
        #expect(streamed?.folder == out)
        #expect(streamed?.message.hasPrefix("cannot write the site: ") == true)
        #expect(streamed?.message.hasSuffix("print.html: File exists") == true)
        #expect(!produced, "nothing is made for a file that cannot be opened")
    }
}

/// A large site's lessons are made without holding everything they are made from.
struct LessonPartsTests {
    final class Part: Sendable {}

    /// A part taken is held by the taker alone: dropped, it is freed.
    @Test func aPartTakenIsFreedWithItsTaker() {
        weak var first: Part?, second: Part?
        let parts: LessonParts<Part>
        do {
            let made = [Part(), Part()]
            first = made[0]
            second = made[1]
            parts = LessonParts(made)
        }
        #expect(first != nil)
        do {
            let taken = parts.take(0)
            #expect(taken === first)
        }
        #expect(first == nil, "the taken part is still held")
        #expect(second != nil, "a part not taken is kept")
        withExtendedLifetime(parts) {}
    }

    /// A body kept without its spare room is the same text.
    @Test(arguments: [0, 3, 15, 16, 1000, 70_000])
    func aCompactedStringIsTheSameText(length: Int) {
        var grown = ""
        for index in 0..<length { grown += index % 7 == 0 ? "ş" : "a" }
        let compacted = grown.compacted
        #expect(compacted == grown)
        #expect(Array(compacted.utf8) == Array(grown.utf8))
    }
}
