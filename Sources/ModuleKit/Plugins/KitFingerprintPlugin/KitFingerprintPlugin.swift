import PackagePlugin

/// Generates `KitFingerprint.swift` for the ModuleKit target from every Swift source of the
/// ModuleKit and Contracts targets, so that the fingerprint follows the sources by itself.
@main
struct KitFingerprintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let kitTargets = context.package.targets.filter { ["ModuleKit", "Contracts"].contains($0.name) }
        let sources = kitTargets.flatMap { kitTarget in
            (kitTarget as? SourceModuleTarget)?.sourceFiles(withSuffix: "swift").map(\.url) ?? []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "KitFingerprint.swift")
        return [
            .buildCommand(
                displayName: "Fingerprinting ModuleKit sources",
                executable: try context.tool(named: "KitFingerprintTool").url,
                arguments: [output.path] + sources.map(\.path),
                inputFiles: sources,
                outputFiles: [output]
            )
        ]
    }
}
