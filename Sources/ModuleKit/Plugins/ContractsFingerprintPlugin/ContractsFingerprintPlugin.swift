import PackagePlugin

/// Applied to a contracts target (route protocols shared by modules, in a package with a
/// dynamic library product): records a digest of its Swift sources in an ELF section of its
/// library. Modules that import the target record the same digest in their descriptors, so the
/// host can refuse, before loading it, a module built against another build of the library.
@main
struct ContractsFingerprintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "ContractsFingerprint.swift")
        return [
            .buildCommand(
                displayName: "Fingerprinting the \(target.name) contracts",
                executable: try context.tool(named: "KitFingerprintTool").url,
                arguments: ["--contracts", output.path, target.name] + sources.map(\.path),
                inputFiles: sources,
                outputFiles: [output]
            )
        ]
    }
}
