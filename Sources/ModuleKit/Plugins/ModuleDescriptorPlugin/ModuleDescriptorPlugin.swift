import Foundation
import PackagePlugin

/// Generates a module target's descriptor from its `module.manifest`: the `Module` constants
/// (name, version, routes) and the same facts as bytes in an ELF section that the host reads
/// before it opens the library. Apply it to the target that declares the module type.
@main
struct ModuleDescriptorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let manifest = target.directoryURL.appending(path: "module.manifest")
        guard let kit = Self.kitPackage(in: context.package) else {
            throw PluginError(
                message: "'\(target.name)': the ModuleKit package is not among the dependencies of '\(context.package.displayName)'")
        }
        let kitTargets = kit.targets.filter { ["ModuleKit", "Contracts"].contains($0.name) }
        let sources = kitTargets.flatMap { ($0 as? SourceModuleTarget)?.sourceFiles(withSuffix: "swift").map(\.url) ?? [] }
        guard let abi = kit.targets.first(where: { $0.name == "CModuleABI" }) else {
            throw PluginError(message: "the ModuleKit package has no CModuleABI target")
        }
        let header = abi.directoryURL.appending(path: "include/modhost_abi.h")
        let output = context.pluginWorkDirectoryURL.appending(path: "ModuleDescriptor.swift")
        // Where SwiftPM copies the target's resources, beside the library; strings are
        // declared when the target ships Resources/Strings, so no author types a bundle name.
        let resources = "\(context.package.displayName)_\(target.name).resources"
        let strings = target.directoryURL.appending(path: "Resources/Strings")
        var isFolder: ObjCBool = false
        let hasStrings = FileManager.default.fileExists(atPath: strings.path, isDirectory: &isFolder) && isFolder.boolValue
        return [
            .buildCommand(
                displayName: "Generating the module descriptor of \(target.name)",
                executable: try context.tool(named: "KitFingerprintTool").url,
                arguments: ["--descriptor", output.path, manifest.path, header.path, resources, hasStrings ? "strings" : "no-strings"]
                    + sources.map(\.path),
                inputFiles: [manifest, header] + sources,
                outputFiles: [output]
            )
        ]
    }

    /// The package that holds the kit: this one, or the one a module package depends on.
    static func kitPackage(in package: Package) -> Package? {
        var pending = [package]
        var seen: Set<String> = []
        while let candidate = pending.popLast() {
            guard seen.insert(candidate.id).inserted else { continue }
            let names = Set(candidate.targets.map(\.name))
            if names.isSuperset(of: ["ModuleKit", "Contracts", "CModuleABI"]) { return candidate }
            pending += candidate.dependencies.map(\.package)
        }
        return nil
    }
}

struct PluginError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
