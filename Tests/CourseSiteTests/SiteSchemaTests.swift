@testable import CourseSite
import Foundation
import TestSupport
import Testing

/// The names a template may use come from the template contexts (PageContexts.swift); the
/// manual lists them, and these tests hold the two together.
struct SiteSchemaTests {
    static let pages: [(template: String, schema: TemplateSchema)] = [
        ("layout.html", SiteSchema.layout), ("index.html", SiteSchema.index), ("lesson.html", SiteSchema.lesson),
        ("limitations.html", SiteSchema.limitations), ("print.html", SiteSchema.print), ("search.html", SiteSchema.search),
    ]

    /// The manual's tables of names (docs/site.md, "The names") list exactly the names of every
    /// page's context, each with its kind: the names every template sees, then each page's own.
    @Test func theManualListsEveryNameOfEveryTemplate() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/site.md"), encoding: .utf8)
        let tables = try #require(Self.tables(in: page))
        let shared = try #require(tables["shared"])
        #expect(Self.drift(listed: shared, derived: Self.flattened(SiteSchema.shared)) == [])
        for (template, schema) in Self.pages {
            let own = tables[template] ?? [:]
            #expect(Set(own.keys).isDisjoint(with: shared.keys), "\(template) lists names every template sees")
            #expect(Self.drift(listed: shared.merging(own) { $1 }, derived: Self.flattened(schema)) == [], "\(template)")
        }
        #expect(Set(tables.keys).subtracting(["shared"]) == Set(Self.pages.map(\.template)).subtracting(["search.html"]))
    }

    /// Every page's context has the names every template sees, with the same kinds.
    @Test func everyPageHasTheSharedNames() {
        for (template, schema) in Self.pages {
            for (name, kind) in SiteSchema.shared.fields {
                #expect(schema.fields[name] == kind, "\(template): \(name)")
            }
        }
        #expect(SiteSchema.search == SiteSchema.shared)
    }

    /// A context's names are its properties' names, and the kinds their types'.
    @Test func aContextsShapeIsItsTypes() {
        struct Item: Encodable, Sendable { var name: String; var count: Int }
        struct Sample: Encodable { var title: String; var body: RenderedHTML; var flag: Bool; var items: [Item]; var link: PageLink }
        let sample = Sample(title: "a<b", body: RenderedHTML("<p>ok</p>"), flag: true,
                            items: [Item(name: "x", count: 2)], link: PageLink(title: "t", href: "h"))
        #expect(TemplateSchema(shapeOf: sample) == TemplateSchema([
            "title": .text, "body": .html, "flag": .bool,
            "items": .list(TemplateSchema(["name": .text, "count": .text])),
            "link": .record(TemplateSchema(["title": .text, "href": .text])),
        ]))
        let values = TemplateEncoding.record(sample)
        #expect(values == [
            "title": .text("a<b"), "body": .html("<p>ok</p>"), "flag": .bool(true),
            "items": .list([["name": .text("x"), "count": .text("2")]]),
            "link": .record(["title": .text("t"), "href": .text("h")]),
        ])
    }

    /// The tables of the manual's "The names": each table's rows by template ("shared" for the
    /// names every template sees), each name (a path, `a.b`) with its kind.
    static func tables(in page: String) -> [String: [String: String]]? {
        guard let part = page.components(separatedBy: "### The names").dropFirst().first else { return nil }
        var tables: [String: [String: String]] = [:]
        var current: String?
        for line in part.split(separator: "\n") {
            if line.hasPrefix("Every template sees") {
                current = "shared"
            } else if line.hasPrefix("`"), line.hasSuffix("`:") {
                current = String(line.dropFirst().dropLast(2))
            } else if line.hasPrefix("| `"), let current {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                let names = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                for name in names {
                    if tables[current, default: [:]][name] != nil { return nil }
                    tables[current, default: [:]][name] = cells[2]
                }
            }
        }
        return tables
    }

    /// Where the manual's list and the context's names differ, one line each.
    static func drift(listed: [String: String], derived: [String: String]) -> [String] {
        derived.sorted { $0.key < $1.key }.compactMap { name, kind in
            listed[name] == kind ? nil : "'\(name)' is \(kind), the manual says \(listed[name].map { "'\($0)'" } ?? "nothing of it")"
        } + listed.keys.sorted().filter { derived[$0] == nil }.map { "'\($0)' is in the manual and in no context" }
    }

    /// Every name of `schema` as a path, with its kind as the manual says it.
    static func flattened(_ schema: TemplateSchema, under prefix: String = "") -> [String: String] {
        var found: [String: String] = [:]
        for (name, kind) in schema.fields {
            let path = prefix + name
            switch kind {
            case .text: found[path] = "text"
            case .html: found[path] = "HTML"
            case .bool: found[path] = "yes/no"
            case .list(let item):
                found[path] = "list"
                found.merge(flattened(item, under: path + ".")) { $1 }
            case .record(let fields):
                found[path] = "record"
                found.merge(flattened(fields, under: path + ".")) { $1 }
            }
        }
        return found
    }
}
