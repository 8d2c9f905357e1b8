import Foundation
import PackagePlugin

/// Checks at build time that a layer imports no target of this package beyond the
/// dependencies `Package.swift` gives it: the manifest's import rules, enforced by the build.
@main
struct LayerRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        let declared = target.dependencies.flatMap { dependency -> [String] in
            switch dependency {
            case .target(let other): return [other.name]
            case .product(let product): return product.targets.map(\.name)
            @unknown default: return []
            }
        }
        let packageModules = context.package.targets.map(\.name)
        let stamp = context.pluginWorkDirectoryURL.appending(path: "LayerRules.swift")
        return [.buildCommand(
            displayName: "Checking the imports of \(target.name) against Package.swift",
            executable: try context.tool(named: "ImportChecker").url,
            arguments: ["--target", target.name, "--stamp", stamp.path]
                + declared.flatMap { ["--may-import", $0] }
                + packageModules.flatMap { ["--package-module", $0] }
                + ["--"] + sources.map(\.path),
            inputFiles: sources,
            outputFiles: [stamp])]
    }
}
