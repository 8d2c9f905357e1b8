import Foundation
@testable import CourseSite
import Testing

struct TemplateTests {
    let schema = TemplateSchema([
        "title": .text, "body": .html, "flag": .bool,
        "items": .list(TemplateSchema(["name": .text, "tags": .list(TemplateSchema(["tag": .text]))])),
        "link": .record(TemplateSchema(["href": .text, "title": .text])),
    ])

    func render(_ text: String, _ values: TemplateRecord) throws -> String {
        try Template(name: "t.html", text: text, schema: schema).render(values)
    }

    @Test func textIsEscapedAndHTMLIsNot() throws {
        let out = try render("<h1>{{title}}</h1>{{ body }}", ["title": .text("<a & \"b\">'"), "body": .html("<p>ok</p>")])
        #expect(out == "<h1>&lt;a &amp; &quot;b&quot;&gt;&#39;</h1><p>ok</p>")
    }

    @Test func loopsConditionsAndFields() throws {
        let template = """
            {{#each items}}[{{name}}:{{#each tags}}{{tag}}{{#if title}}@{{title}}{{/if}}{{/each}}]{{/each}}\
            {{#if flag}}yes{{else}}no{{/if}}{{#if link.href}} <a href="{{link.href}}">{{link.title}}</a>{{/if}}{{! hidden }}
            """
        let values: TemplateRecord = [
            "title": .text("T"), "body": .html(""), "flag": .bool(false),
            "items": .list([["name": .text("a"), "tags": .list([["tag": .text("x")], ["tag": .text("y")]])],
                            ["name": .text("b"), "tags": .list([])]]),
            "link": .record(["href": .text("p.html"), "title": .text("P")]),
        ]
        #expect(try render(template, values) == "[a:x@Ty@T][b:]no <a href=\"p.html\">P</a>")
    }

    /// A list item that keeps its renderings renders as it would without: on every page, and
    /// anew once it is changed; a body that looks up a name outside the item is rendered with
    /// the name's value of each page, never as kept.
    @Test func keptRenderingsAreTheRenderings() throws {
        let kept: TemplateRecord = ["name": .text("a<b"), "tags": .list([["tag": .text("x")]])]
        let own = try Template(name: "t.html", text: "{{#each items}}[{{name}}{{#each tags}}{{tag}}{{/each}}]{{/each}}", schema: schema)
        let outer = try Template(name: "t.html", text: "{{#each items}}[{{name}}{{title}}]{{/each}}", schema: schema)
        let two = try Template(name: "t.html", text: "{{#each items}}({{name}}){{/each}}{{#each items}}<{{name}}>{{/each}}", schema: schema)
        let item = kept.keepingRenderings(by: [own, outer, two])
        for title in ["one", "two"] {
            #expect(own.render(["items": .list([item, item])]) == "[a&lt;bx][a&lt;bx]")
            #expect(outer.render(["title": .text(title), "items": .list([item])]) == "[a&lt;b\(title)]")
        }
        // Two blocks (of one template, or of two) keep their renderings of one item apart;
        // these two look up nothing but the item's own names, so they render it once.
        #expect(two.render(["items": .list([item])]) == "(a&lt;b)<a&lt;b>")
        #expect(own.render(["items": .list([item])]) == "[a&lt;bx]")
        var changed = item
        changed["name"] = .text("c")
        #expect(two.render(["items": .list([changed, item])]) == "(c)(a&lt;b)<c><a&lt;b>")
        #expect(own.render(["items": .list([changed, item])]) == "[cx][a&lt;bx]")
        var streamed = ""
        two.render(["items": .list([item])], writing: { streamed += $0 })
        #expect(streamed == "(a&lt;b)<a&lt;b>")
    }

    @Test(arguments: [
        ("<p>\n{{titel}}</p>", 2, "unknown placeholder 'titel' (known here: body, flag, items, link, title)"),
        ("{{items}}", 1, "'items' is a list; only text and HTML can be inserted"),
        ("{{#each title}}{{/each}}", 1, "'title' is not a list; #each needs one"),
        ("{{link.url}}", 1, "unknown placeholder 'link.url': 'link' has no field 'url'"),
        ("\n\n{{#if flag}}", 3, "'{{#if}}' is never closed with '{{/if}}'"),
        ("{{#if flag}}{{/each}}", 1, "'{{/each}}' closes the '{{#if}}' opened at line 1"),
        ("{{/if}}", 1, "'{{/if}}' closes nothing"),
        ("{{else}}", 1, "'{{else}}' outside an '{{#if}}' block"),
        ("{{> partial}}", 1, "unknown tag '{{> partial}}' (tags: {{name}}, {{#each list}}, {{#if name}}, {{else}}, {{/each}}, {{/if}}, {{! comment}})"),
        ("{{two words}}", 1, "'two words' is not a placeholder name (letters, digits, '_', '.' between fields)"),
        ("a\n{{title", 2, "'{{' is not closed by '}}'"),
        ("{{#each items}}{{nope}}{{/each}}", 1, "unknown placeholder 'nope' (known here: body, flag, items, link, name, tags, title)"),
        // A list repeated inside itself multiplies the page by its length at every level.
        ("{{#each items}}\n{{#each tags}}\n{{#each items}}{{/each}}{{/each}}{{/each}}", 3,
         "'{{#each items}}' inside the '{{#each}}' of line 1, which already repeats that list: the page would hold it once for every item of it"),
        (String(repeating: "{{#if flag}}\n", count: 17), 17,
         "'{{#if}}' nests blocks more than 16 deep ('{{#if}}' and '{{#each}}' inside one another)"),
    ])
    func errorsNameTheTemplateAndLine(text: String, line: Int, message: String) {
        #expect(throws: TemplateError(template: "t.html", line: line, message: message)) {
            try Template(name: "t.html", text: text, schema: schema)
        }
    }

    /// Lists inside other lists are fine; only a list inside itself is refused.
    @Test func aListInsideAnotherListRenders() throws {
        let text = "{{#each items}}{{#each tags}}{{tag}}{{/each}}{{/each}}"
        let values: TemplateRecord = [
            "title": .text(""), "body": .html(""), "flag": .bool(true), "link": .record(["href": .text(""), "title": .text("")]),
            "items": .list([["name": .text("a"), "tags": .list([["tag": .text("x")], ["tag": .text("y")]])]]),
        ]
        #expect(try render(text, values) == "xy")
        // Sixteen blocks deep is allowed.
        let deep = String(repeating: "{{#if flag}}", count: 16) + "in" + String(repeating: "{{/if}}", count: 16)
        #expect(try render(deep, values) == "in")
    }

    /// 200,000 nested blocks stop at the limit, at its line: no stack is exhausted, and nothing
    /// nested that deep is ever built.
    @Test func hostileNestingStopsAtTheLimit() {
        let text = String(repeating: "{{#if flag}}", count: 200_000) + String(repeating: "{{/if}}", count: 200_000)
        #expect(throws: TemplateError(template: "t.html", line: 1,
                                      message: "'{{#if}}' nests blocks more than 16 deep ('{{#if}}' and '{{#each}}' inside one another)")) {
            try Template(name: "t.html", text: text, schema: schema)
        }
    }

    @Test func theBuiltInTemplatesFitTheirPages() throws {
        let set = try TemplateSet.builtIn()
        #expect(set.assets.keys.contains("style.css"))
    }
}

struct AnchorTests {
    @Test(arguments: [
        ("Sınırlayıcı Ölçüm", "sinirlayici-olcum"),
        ("İki Görünüm, Bir Çağrı!", "iki-gorunum-bir-cagri"),
        ("Ağaç: ŞİMDİ & Sonra", "agac-simdi-sonra"),
        ("café déjà vu", "cafe-deja-vu"),
        ("`@State` ile", "state-ile"),
        ("!!!", "bolum"),
    ])
    func slugs(text: String, slug: String) {
        #expect(AnchorNamer.slug(text) == slug)
    }

    @Test func anchorsAreUniqueAndAvoidReservedOnes() {
        var namer = AnchorNamer(reserved: ["dr1"])
        #expect(namer.anchor(for: "Özet") == "ozet")
        #expect(namer.anchor(for: "Özet") == "ozet-2")
        #expect(namer.anchor(for: "ÖZET") == "ozet-3")
        #expect(namer.anchor(for: "DR1") == "dr1-2")
    }
}

struct SiteWordsTests {
    @Test func languageChoosesTheWords() {
        #expect(SiteWords.forLanguage("tr")?.next == "Sonraki ders")
        #expect(SiteWords.forLanguage("tr-TR")?.next == "Sonraki ders")
        #expect(SiteWords.forLanguage("en-GB")?.next == "Next lesson")
        #expect(SiteWords.forLanguage("de") == nil)
        #expect(SiteWords.turkish.scenarioCount(3) == "3 senaryo doğrulandı")
        #expect(SiteWords.english.scenarioCount(1) == "1 scenario verified")
    }
}
