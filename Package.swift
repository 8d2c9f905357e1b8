// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// The toolchain ships SwiftSyntax, SwiftParser and SwiftIDEUtils for its macro support, as
/// `.swiftinterface` + `.so` in `<toolchain>/usr/lib/swift/host`. No outside package can be
/// fetched here, so we use those. The folder comes from `SWIFT_HOST_LIBS` when set, else from
/// the `swiftc` found on `PATH` (symlinks resolved, then `../lib/swift/host`).
let swiftHostLibraries: String = {
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["SWIFT_HOST_LIBS"], !override.isEmpty { return override }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
        return candidate.resolvingSymlinksInPath()
            .deletingLastPathComponent()       // bin
            .deletingLastPathComponent()       // usr
            .appendingPathComponent("lib/swift/host").path
    }
    return "/usr/lib/swift/host"
}()

/// Only SwiftReading sees the host libraries: it is built with library evolution and imports
/// them `internal`, so no other layer needs (or can use) `-I` to them.
let hostSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution", "-I", swiftHostLibraries])]
let hostLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-L", swiftHostLibraries,
                  "-lSwiftParser", "-lSwiftParserDiagnostics", "-lSwiftDiagnostics",
                  "-lSwiftSyntax", "-lSwiftIDEUtils",
                  "-Xlinker", "-rpath", "-Xlinker", swiftHostLibraries]),
]

// MARK: The layers and what each may import

/// The import rules of the architecture: each layer's dependencies are exactly what it may
/// import (the LayerRules plugin fails a build whose sources import a target of this package
/// that is not listed here). The model holds values only: no parser, no process, no HTML, no
/// threads; only LessonParsing imports cmark-gfm; only CourseFiles imports libcrypto; only
/// Processes imports CProcess and starts programs (child processes, the sandbox, the launcher's
/// limits, the processes' end on a stop, the reading process, Pagefind): the runner says which
/// compilers and programs to run, and Processes runs them; checking writes no HTML and knows
/// no runner; the site never runs a scenario and starts no program.
///
/// The change diagrams are one feature in one layer, ChangeDiagrams: the classifier's change
/// lines read back (its line format is declared there and nowhere else), the rules that match
/// a line to its view tree, the layout and the drawing. It sees the model and HTMLText only:
/// checking calls its rules, the site its drawing. The view trees a scenario writes are read
/// from its syntax tree, and only SwiftReading sees the toolchain's swift-syntax (see
/// `hostSwiftSettings`): that walk stays there and hands its result on as the model's
/// `ScenarioTrees`, a plain value the parser cache stores and the rules consume. The values a
/// diagram is made of (`ScenarioTrees`, `MeasuredChange`, `ChangeDiagram`) stay in the model as
/// stored fields only (ChangeDiagramValues.swift), because the model's `SwiftBlockFacts` and
/// `ScenarioResult` carry them from the reader to the check and from the check to the site; what
/// they mean (reading a line, a tree's parents, a drawing's cache text) is ChangeDiagrams'. The
/// drawings' store (`DiagramDrawer`) is the site's: it writes files, which ChangeDiagrams never
/// does.
///
/// Below the model, two layers of helpers that are not values: HTMLText (text made safe in
/// HTML and Xcode's placeholders as HTML, for the readers, the site and the preview) and
/// BackgroundWork (work spread over every core, and the atomic counts of work a command did).
let layers: [(name: String, mayImport: [String])] = [
    ("HTMLText", []),
    ("BackgroundWork", []),
    ("CourseModel", []),
    ("CourseFiles", ["CLibCrypto", "CZlib"]),
    ("LessonParsing", ["CourseModel", "CourseFiles", "HTMLText", "BackgroundWork", "CCmarkGFM"]),
    ("SwiftReading", ["CourseModel", "CourseFiles", "HTMLText", "BackgroundWork"]),
    ("Processes", ["CourseModel", "CourseFiles", "BackgroundWork", "CProcess"]),
    // The batch runner's source, a target of its own so that the build checks it; nothing
    // imports it: ScenarioRunning embeds its text (the EmbedTemplates plugin) and writes it into
    // batch programs, so it depends on it only to have it built.
    ("CoursebookBatchRunner", []),
    ("ScenarioRunning", ["CourseModel", "CourseFiles", "BackgroundWork", "Processes", "CoursebookBatchRunner"]),
    ("ChangeDiagrams", ["CourseModel", "HTMLText"]),
    ("CourseChecking", ["CourseModel", "ChangeDiagrams", "BackgroundWork"]),
    ("CourseSite", ["CourseModel", "CourseFiles", "LessonParsing", "ChangeDiagrams", "HTMLText", "BackgroundWork"]),
    // The merge holds a shard's statuses to the check's own comparison of expected and actual.
    ("CourseReports", ["CourseModel", "CourseChecking"]),
    ("PreviewServer", ["CourseModel", "CourseFiles", "HTMLText", "CMicroHTTPD"]),
    ("CoursePipeline", ["CourseModel", "CourseFiles", "LessonParsing", "SwiftReading",
                        "Processes", "ScenarioRunning", "CourseChecking", "CourseSite", "CourseReports",
                        "BackgroundWork"]),
    // The author's loop around the pipeline: watch, serve (with the preview server), new,
    // merge-reports and the editor's language server.
    ("AuthorLoop", ["CourseModel", "CourseFiles", "LessonParsing", "CourseChecking", "CourseReports",
                    "PreviewServer", "CoursePipeline"]),
    ("CoursebookCLI", ["CourseModel", "CourseReports", "CoursePipeline", "AuthorLoop"]),
]

/// Reaches the architecture forbids, checked when this manifest is read: a layer listed on
/// the left may not depend on the one on the right, directly or through another layer.
/// Removing a line here is the only way to let a layer reach the wrong way.
let forbiddenReaches: [(from: String, to: String)] = [
    ("CourseModel", "LessonParsing"), ("CourseModel", "ScenarioRunning"), ("CourseModel", "SwiftReading"),
    ("CourseModel", "CourseFiles"), ("CourseModel", "ChangeDiagrams"), ("CourseModel", "HTMLText"),
    ("CourseModel", "BackgroundWork"),
    ("HTMLText", "CourseModel"), ("BackgroundWork", "CourseModel"),
    ("ChangeDiagrams", "LessonParsing"), ("ChangeDiagrams", "SwiftReading"), ("ChangeDiagrams", "ScenarioRunning"),
    ("ChangeDiagrams", "CourseFiles"), ("ChangeDiagrams", "CourseChecking"), ("ChangeDiagrams", "CourseSite"),
    ("ChangeDiagrams", "BackgroundWork"),
    ("CourseChecking", "ScenarioRunning"), ("CourseChecking", "CourseSite"), ("CourseChecking", "LessonParsing"),
    ("CourseChecking", "SwiftReading"),
    ("CourseSite", "ScenarioRunning"), ("CourseSite", "CourseChecking"), ("CourseSite", "SwiftReading"),
    ("SwiftReading", "LessonParsing"), ("SwiftReading", "ScenarioRunning"),
    ("ScenarioRunning", "LessonParsing"), ("ScenarioRunning", "SwiftReading"), ("ScenarioRunning", "CourseChecking"),
    ("CourseFiles", "CourseModel"),
    ("CourseReports", "ScenarioRunning"), ("CourseReports", "LessonParsing"), ("CourseReports", "CourseSite"),
    ("PreviewServer", "ScenarioRunning"), ("PreviewServer", "LessonParsing"), ("PreviewServer", "CourseSite"),
    ("PreviewServer", "CourseChecking"), ("PreviewServer", "SwiftReading"),
    // Only Processes starts programs, and it knows nothing of what they are for.
    ("Processes", "ScenarioRunning"), ("Processes", "LessonParsing"), ("Processes", "SwiftReading"),
    ("Processes", "CourseChecking"), ("Processes", "CourseSite"),
    ("CourseModel", "Processes"), ("LessonParsing", "Processes"), ("SwiftReading", "Processes"),
    ("ChangeDiagrams", "Processes"), ("CourseChecking", "Processes"), ("CourseSite", "Processes"),
    ("CourseReports", "Processes"), ("PreviewServer", "Processes"),
]
/// Only these layers may import a C module.
let cModuleOwners = ["CCmarkGFM": "LessonParsing", "CProcess": "Processes", "CMicroHTTPD": "PreviewServer",
                     "CLibCrypto": "CourseFiles", "CZlib": "CourseFiles"]

func reach(of layer: String) -> Set<String> {
    var found: Set<String> = []
    var pending = layers.first { $0.name == layer }?.mayImport ?? []
    while let next = pending.popLast() {
        guard found.insert(next).inserted else { continue }
        pending += layers.first { $0.name == next }?.mayImport ?? []
    }
    return found
}
for rule in forbiddenReaches where reach(of: rule.from).contains(rule.to) {
    fatalError("Package.swift: \(rule.from) may not depend on \(rule.to), directly or through another layer (see forbiddenReaches)")
}
for layer in layers {
    for (module, owner) in cModuleOwners where layer.name != owner && layer.mayImport.contains(module) {
        fatalError("Package.swift: only \(owner) may import \(module), not \(layer.name)")
    }
}

func dependencies(of layer: String) -> [Target.Dependency] {
    (layers.first { $0.name == layer }?.mayImport ?? []).map { .target(name: $0) }
}

/// Every layer's sources are checked against its dependencies at build time.
let layerRules: [Target.PluginUsage] = [.plugin(name: "LayerRules")]

let package = Package(
    name: "coursebook",
    products: [
        .executable(name: "coursebook", targets: ["coursebook"]),
        .executable(name: "coursebook-launcher", targets: ["coursebook-launcher"]),
        .library(name: "Invalidation", targets: ["Invalidation"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),

        // GNU libmicrohttpd, the preview server's HTTP (only PreviewServer sees it).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),

        // OpenSSL's libcrypto: SHA-256 and HMAC for the content-addressed cache (only
        // CourseFiles sees it).
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // zlib: the search index's files are gzip, and the build rewrites its shards' metadata
        // with their balance pages (only CourseFiles sees it).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // pipe2 and posix_spawn_file_actions_addchdir_np, which Swift's Glibc does not show.
        .target(name: "CProcess"),

        // The core classifier, shown to learners as it is.
        .target(name: "Invalidation"),

        // Text made safe inside HTML: what the readers, the site and the preview write into pages.
        .target(name: "HTMLText", plugins: layerRules),

        // Work on every core at once (`concurrentMap`), and the counts of work a command did.
        .target(name: "BackgroundWork", plugins: layerRules),

        // Course, Lesson, CodeBlock, Scenario, LimitNote, Diagnostic, CheckReport: values only.
        .target(name: "CourseModel", plugins: layerRules),

        // Atomic writes, SHA-256 (through libcrypto) and the content-addressed store.
        .target(name: "CourseFiles", dependencies: dependencies(of: "CourseFiles"), plugins: layerRules),

        // The only code that talks to cmark-gfm: one parse per lesson, course.json, loading.
        .target(name: "LessonParsing", dependencies: dependencies(of: "LessonParsing"), plugins: layerRules),

        // The only code that uses the toolchain's swift-syntax: one parse per Swift block.
        .target(
            name: "SwiftReading",
            dependencies: dependencies(of: "SwiftReading"),
            swiftSettings: hostSwiftSettings,
            linkerSettings: hostLinkerSettings,
            plugins: layerRules),

        // The only code that starts programs: child processes and their watchers, the bubblewrap
        // sandbox and the launcher's limits, process control (subreaper, the end of every
        // process on a stop, the signals that stop a run), a program that answers framed
        // requests (`coursebook read-swift`), Pagefind.
        .target(name: "Processes", dependencies: dependencies(of: "Processes"), plugins: layerRules),

        // The scenarios run: swiftc, batched scenario programs, modules, the result cache (the
        // programs themselves started through Processes).
        .target(name: "ScenarioRunning", dependencies: dependencies(of: "ScenarioRunning"),
                plugins: [.plugin(name: "EmbedTemplates")] + layerRules),

        // The batch runner (see ScenarioProgram.runnerSource), C: compiled here only to be
        // checked, warnings as errors; its text is what the toolchain's clang compiles for batches.
        .target(name: "CoursebookBatchRunner", publicHeadersPath: ".",
                cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]),

        // The change diagrams: change lines read back, matched to their view trees, laid out
        // and drawn (see `layers`). Pure.
        .target(name: "ChangeDiagrams", dependencies: dependencies(of: "ChangeDiagrams"), plugins: layerRules),

        // Comparison, diffs, limitation-note rules, core listings, --update plans: pure.
        .target(name: "CourseChecking", dependencies: dependencies(of: "CourseChecking"), plugins: layerRules),

        // Pages from checked lessons: templates, anchors, atomic site writing.
        .target(
            name: "CourseSite",
            dependencies: dependencies(of: "CourseSite"),
            plugins: [.plugin(name: "EmbedTemplates")] + layerRules),

        // A check's report written for people, tools and CI: text, JSON, JUnit XML, GitHub
        // annotations; shards' JSON reports merged into one.
        .target(name: "CourseReports", dependencies: dependencies(of: "CourseReports"), plugins: layerRules),

        // `coursebook serve`: a built site on the loopback address through libmicrohttpd, with
        // reload events and a failed check's diagnostics in place of the pages.
        .target(name: "PreviewServer", dependencies: dependencies(of: "PreviewServer"), plugins: layerRules),

        // check and build as pipelines of step values (read, run, judge, render, index, write)
        // that one loop runs over one context, naming the step that stops.
        .target(name: "CoursePipeline", dependencies: dependencies(of: "CoursePipeline"), plugins: layerRules),

        // The author's loop beside the pipeline: `coursebook lsp`, the editor's language server.
        .target(name: "AuthorLoop", dependencies: dependencies(of: "AuthorLoop"), plugins: layerRules),

        // Argument parsing, printing, exit statuses.
        .target(name: "CoursebookCLI", dependencies: dependencies(of: "CoursebookCLI"), plugins: layerRules),

        .executableTarget(name: "coursebook", dependencies: ["CoursebookCLI"]),

        // Starts a program of one scenario and reports how it ended (see its main.c); a C
        // program of its own, put beside `coursebook` by the build.
        .executableTarget(name: "coursebook-launcher", path: "Sources/ScenarioLauncher"),

        // `make bench`: coursebook on generated corpora, against swiftc and hugo in the same run.
        .executableTarget(name: "coursebook-bench", path: "Sources/CoursebookBench"),

        // Turns `templates/` and the batch runner's source into Swift source, so that the tool
        // carries them with it.
        .executableTarget(name: "TemplateEmbedder"),
        .plugin(
            name: "EmbedTemplates",
            capability: .buildTool(),
            dependencies: ["TemplateEmbedder"]),

        // Checks each layer's imports against its dependencies in this manifest.
        .executableTarget(name: "ImportChecker"),
        .plugin(
            name: "LayerRules",
            capability: .buildTool(),
            dependencies: ["ImportChecker"]),

        // What the test targets share: the package's folder, scratch folders, fixture courses.
        .target(name: "TestSupport", dependencies: ["CourseModel", "LessonParsing", "ScenarioRunning", "BackgroundWork"],
                path: "Tests/TestSupport"),
        .testTarget(name: "InvalidationTests", dependencies: ["Invalidation"]),
        .testTarget(name: "HTMLTextTests", dependencies: ["HTMLText"]),
        .testTarget(name: "BackgroundWorkTests", dependencies: ["BackgroundWork"]),
        .testTarget(name: "CourseModelTests", dependencies: ["CourseModel", "TestSupport"]),
        .testTarget(name: "CourseFilesTests", dependencies: ["CourseFiles", "TestSupport"]),
        .testTarget(name: "LessonParsingTests", dependencies: ["LessonParsing", "CourseModel", "BackgroundWork", "TestSupport"]),
        .testTarget(
            name: "SwiftReadingTests",
            dependencies: ["SwiftReading", "CourseModel", "CourseFiles", "HTMLText", "BackgroundWork", "TestSupport"],
            swiftSettings: [.unsafeFlags(["-I", swiftHostLibraries])]),
        .testTarget(name: "ProcessesTests", dependencies: ["Processes", "CourseModel", "TestSupport"]),
        .testTarget(name: "ScenarioRunningTests", dependencies: ["ScenarioRunning", "Processes", "CourseModel", "TestSupport"]),
        .testTarget(name: "ChangeDiagramsTests",
                    dependencies: ["ChangeDiagrams", "CourseModel", "TestSupport"]),
        .testTarget(name: "CourseCheckingTests",
                    dependencies: ["CourseChecking", "CourseModel", "BackgroundWork", "LessonParsing", "TestSupport"]),
        .testTarget(name: "CourseSiteTests",
                    dependencies: ["CourseSite", "CourseModel", "ChangeDiagrams", "BackgroundWork", "CoursePipeline", "LessonParsing",
                                   "TestSupport"]),
        .testTarget(name: "CourseReportsTests", dependencies: ["CourseReports", "CourseModel", "TestSupport"]),
        .testTarget(name: "PreviewServerTests", dependencies: ["PreviewServer", "CourseModel", "TestSupport"]),
        .testTarget(name: "CoursePipelineTests",
                    dependencies: ["CoursePipeline", "CourseModel", "CourseFiles", "CourseSite", "CourseChecking", "LessonParsing",
                                   "ScenarioRunning", "SwiftReading", "TestSupport"]),
        .testTarget(name: "AuthorLoopTests",
                    dependencies: ["AuthorLoop", "CoursePipeline", "CourseChecking", "CourseFiles", "CourseModel", "LessonParsing",
                                   "TestSupport"]),
        .testTarget(name: "CoursebookCLITests",
                    dependencies: ["CoursebookCLI", "CoursePipeline", "CourseModel", "CourseFiles", "CourseReports", "LessonParsing",
                                   "Processes", "ScenarioRunning", "ChangeDiagrams", "TestSupport"]),
    ]
)
