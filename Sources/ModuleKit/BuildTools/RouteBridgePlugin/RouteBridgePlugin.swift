import Foundation
import PackagePlugin

/// Applied to the target that carries routes across processes (the host's isolation layer):
/// generates a proxy and a dispatcher for every route protocol of the contracts libraries the
/// target depends on (those with a `contracts.manifest`), from their sources. A route member
/// that cannot cross fails the build, naming it.
@main
struct RouteBridgePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        var arguments: [String] = []
        var inputs: [URL] = []
        for contracts in Self.contractsTargets(of: target) {
            let sources = contracts.sourceFiles(withSuffix: "swift").map(\.url)
            arguments += ["--contracts", contracts.name] + sources.map(\.path)
            inputs += sources
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "RouteBridges.swift")
        return [
            .buildCommand(
                displayName: "Generating route proxies and dispatchers for \(target.name)",
                executable: try context.tool(named: "RouteBridgeTool").url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// The source targets, reached through products of other packages or directly, that hold
    /// a `contracts.manifest`, or that are the kit's own Contracts.
    static func contractsTargets(of target: any Target) -> [SourceModuleTarget] {
        var found: [SourceModuleTarget] = []
        for dependency in target.dependencies {
            let targets: [any Target]
            switch dependency {
            case .target(let target): targets = [target]
            case .product(let product): targets = product.targets
            @unknown default: targets = []
            }
            for candidate in targets {
                guard let source = candidate as? SourceModuleTarget, !found.contains(where: { $0.id == source.id }) else { continue }
                let hasManifest = source.sourceFiles.contains { $0.url.lastPathComponent == "contracts.manifest" }
                if hasManifest || source.name == "Contracts" { found.append(source) }
            }
        }
        return found
    }
}
