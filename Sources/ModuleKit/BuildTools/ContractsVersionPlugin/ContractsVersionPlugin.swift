import PackagePlugin

/// Applied to a contracts target (route protocols shared by modules, in a package with a
/// dynamic library product built with library evolution): records the version its
/// `contracts.manifest` declares, and the compiler that built it, in an ELF section of its library. Modules that import the
/// target record the version they were built against, so the host can refuse, before loading
/// it, a module that needs another major or a newer minor than the library the process holds.
@main
struct ContractsVersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let manifest = target.directoryURL.appending(path: "contracts.manifest")
        let output = context.pluginWorkDirectoryURL.appending(path: "ContractsVersion.swift")
        let swiftc = try context.tool(named: "swiftc").url
        return [
            .buildCommand(
                displayName: "Recording the version of the \(target.name) contracts",
                executable: try context.tool(named: "KitBuildTool").url,
                arguments: ["--contracts", output.path, target.name, manifest.path, swiftc.path],
                // The compiler is an input: another toolchain writes another record.
                inputFiles: [manifest, swiftc],
                outputFiles: [output]
            )
        ]
    }
}
