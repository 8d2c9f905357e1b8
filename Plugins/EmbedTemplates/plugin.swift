import Foundation
import PackagePlugin

/// Embeds every file of the package's `templates/` folder into the target as Swift source, so
/// that `coursebook build` finds its default templates whatever folder it runs from.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let inputs = names.filter { !$0.hasPrefix(".") }.sorted()
            .map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [.buildCommand(
            displayName: "Embedding \(inputs.count) templates",
            executable: try context.tool(named: "TemplateEmbedder").url,
            arguments: [output.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output])]
    }
}
