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

/// Every target that imports a module built against the host libraries needs `-I` too.
let hostSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-I", swiftHostLibraries])]
let hostLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-L", swiftHostLibraries,
                  "-lSwiftParser", "-lSwiftParserDiagnostics", "-lSwiftDiagnostics",
                  "-lSwiftSyntax", "-lSwiftIDEUtils",
                  "-Xlinker", "-rpath", "-Xlinker", swiftHostLibraries]),
]

let package = Package(
    name: "coursebook",
    products: [
        .executable(name: "coursebook", targets: ["coursebook"]),
        .library(name: "Invalidation", targets: ["Invalidation"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),

        // pipe2 and posix_spawn_file_actions_addchdir_np, which Swift's Glibc does not show.
        .target(name: "CProcess"),

        // The core classifier, shown to learners as it is.
        .target(name: "Invalidation"),

        // Course model, lesson parsing, scenario running and checking.
        .target(
            name: "CourseKit",
            dependencies: ["CCmarkGFM", "CProcess"],
            swiftSettings: hostSwiftSettings,
            linkerSettings: hostLinkerSettings),

        // Pages from checked lessons: highlighting, templates, atomic site writing.
        .target(
            name: "CourseSite",
            dependencies: ["CourseKit"],
            swiftSettings: hostSwiftSettings,
            linkerSettings: hostLinkerSettings,
            plugins: ["EmbedTemplates"]),

        // Argument parsing, the commands, exit statuses and printing.
        .target(
            name: "CoursebookCLI",
            dependencies: ["CourseKit", "CourseSite"],
            swiftSettings: hostSwiftSettings),

        .executableTarget(
            name: "coursebook",
            dependencies: ["CoursebookCLI"],
            swiftSettings: hostSwiftSettings),

        // `make bench`: a synthetic course timed against plain swiftc runs.
        .executableTarget(
            name: "coursebook-bench",
            dependencies: ["CourseKit"],
            path: "Sources/CoursebookBench",
            swiftSettings: hostSwiftSettings),

        // Turns `templates/` into Swift source so that the tool carries its templates with it.
        .executableTarget(name: "TemplateEmbedder"),
        .plugin(
            name: "EmbedTemplates",
            capability: .buildTool(),
            dependencies: ["TemplateEmbedder"]),

        // What the test targets share: the package's folder, scratch folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "InvalidationTests", dependencies: ["Invalidation"]),
        .testTarget(
            name: "CourseKitTests",
            dependencies: ["CourseKit", "TestSupport"],
            swiftSettings: hostSwiftSettings),
        .testTarget(
            name: "CourseSiteTests",
            dependencies: ["CourseSite", "CourseKit", "TestSupport"],
            swiftSettings: hostSwiftSettings),
        .testTarget(
            name: "CoursebookCLITests",
            dependencies: ["CoursebookCLI", "CourseKit", "TestSupport"],
            swiftSettings: hostSwiftSettings),
    ]
)
