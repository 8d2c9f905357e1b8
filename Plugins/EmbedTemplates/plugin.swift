import Foundation
import PackagePlugin

/// Embeds files of the package into a target as Swift source, a dictionary of file name to
/// contents: the package's `templates/` into CourseSite, so that `coursebook build` finds its
/// default templates whatever folder it runs from, and the batch runner's source
/// (`Sources/CoursebookBatchRunner`, a target the package compiles, so that the build
/// type-checks it) into ScenarioRunning, which writes it into every batch program.
@main
struct EmbedTemplates: BuildToolPlugin {
    /// What each target embeds: a folder of the package, and the name of the dictionary.
    static let embedded = [
        "CourseSite": (folder: "templates", dictionary: "embeddedTemplates"),
        "ScenarioRunning": (folder: "Sources/CoursebookBatchRunner", dictionary: "embeddedBatchRunner"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let embedded = Self.embedded[target.name] else {
            throw PluginError("EmbedTemplates: nothing to embed into \(target.name) (see its `embedded`)")
        }
        let folder = context.package.directoryURL.appending(path: embedded.folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let inputs = names.filter { !$0.hasPrefix(".") }.sorted()
            .map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(embedded.dictionary).swift")
        return [.buildCommand(
            displayName: "Embedding \(embedded.folder)/ into \(target.name)",
            executable: try context.tool(named: "TemplateEmbedder").url,
            arguments: [output.path, embedded.dictionary, embedded.folder] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output])]
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
