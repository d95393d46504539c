import PackagePlugin

/// Generates `KitBuild.swift` for the ModuleKit target: the compiler that builds the kit and
/// the SDK version of `modhost_abi.h`, which a module compiles into its entry point.
@main
struct KitBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let abi = context.package.targets.first(where: { $0.name == "CModuleABI" }) else {
            throw PluginError(message: "the ModuleKit package has no CModuleABI target")
        }
        let header = abi.directoryURL.appending(path: "include/modhost_abi.h")
        let swiftc = try context.tool(named: "swiftc").url
        let output = context.pluginWorkDirectoryURL.appending(path: "KitBuild.swift")
        return [
            .buildCommand(
                displayName: "Recording the kit's SDK version and compiler",
                executable: try context.tool(named: "KitBuildTool").url,
                arguments: ["--kit", output.path, header.path, swiftc.path],
                // The compiler is an input: another toolchain writes another record.
                inputFiles: [header, swiftc],
                outputFiles: [output]
            )
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
