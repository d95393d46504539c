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
        guard let abi = kit.targets.first(where: { $0.name == "CModuleABI" }) else {
            throw PluginError(message: "the ModuleKit package has no CModuleABI target")
        }
        let header = abi.directoryURL.appending(path: "include/modhost_abi.h")
        let output = context.pluginWorkDirectoryURL.appending(path: "ModuleDescriptor.swift")
        let contracts = Self.contractsCandidates(of: target, package: context.package, kit: kit)
        // Where SwiftPM copies the target's resources, beside the library; strings are
        // declared when the target ships Resources/Strings, so no author types a bundle name.
        let resources = "\(context.package.displayName)_\(target.name).resources"
        let strings = target.directoryURL.appending(path: "Resources/Strings")
        var isFolder: ObjCBool = false
        let hasStrings = FileManager.default.fileExists(atPath: strings.path, isDirectory: &isFolder) && isFolder.boolValue
        let swiftc = try context.tool(named: "swiftc").url
        var arguments = [
            "--descriptor", output.path, manifest.path, header.path, swiftc.path, resources, hasStrings ? "strings" : "no-strings",
        ]
        // The compiler is an input: another toolchain writes another record.
        var inputs = [manifest, header, swiftc]
        for (name, contractsManifest) in contracts {
            arguments += ["--contracts-target", name, contractsManifest.path]
            if FileManager.default.fileExists(atPath: contractsManifest.path) { inputs.append(contractsManifest) }
        }
        return [
            .buildCommand(
                displayName: "Generating the module descriptor of \(target.name)",
                executable: try context.tool(named: "KitBuildTool").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// The Swift targets of other packages (not this one, not the kit) that the module depends
    /// on, with where their `contracts.manifest` is: the tool records the version of those its
    /// manifest imports, its contracts.
    static func contractsCandidates(of target: any Target, package: Package, kit: Package) -> [(name: String, manifest: URL)] {
        let local = Set((package.targets + kit.targets).map(\.id))
        return target.recursiveTargetDependencies.compactMap { dependency in
            guard !local.contains(dependency.id), let module = dependency as? SourceModuleTarget,
                !module.sourceFiles(withSuffix: "swift").isEmpty
            else { return nil }
            return (module.name, module.directoryURL.appending(path: "contracts.manifest"))
        }
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
