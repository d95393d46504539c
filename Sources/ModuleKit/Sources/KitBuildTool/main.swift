// The kit's build tool. Three jobs, all run by build-tool plugins of this package:
//
//   KitBuildTool --kit OUTPUT ABI_HEADER SWIFTC
//       writes KitBuild.swift into ModuleKit: the compiler that builds the kit and the SDK
//       version a module compiles into its entry point;
//   KitBuildTool --descriptor OUTPUT MANIFEST ABI_HEADER SWIFTC RESOURCES strings|no-strings
//                [--contracts-target NAME CONTRACTS_MANIFEST]...
//       writes a module's descriptor from its module.manifest: the Swift constants of its
//       Module type (with its resources folder, RESOURCES, and its strings folder when the
//       target ships Resources/Strings) and the same facts as plain bytes in the ELF section
//       the host reads before it opens the library: the ABI and SDK versions, the compiler,
//       and the version of each contracts target the manifest imports;
//   KitBuildTool --contracts OUTPUT NAME CONTRACTS_MANIFEST SWIFTC
//       writes a contracts library's version and compiler into an ELF section of its own, so
//       the host can tell which version of the library a module needs, which one the process
//       holds, and that one compiler built it and the kit.
//
// Foundation is avoided so that building the tool stays cheap.
#if canImport(Glibc)
    import Glibc
#endif

func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func run(_ arguments: [String]) throws(ToolError) {
    switch arguments.first {
    case "--descriptor": try writeDescriptor(Array(arguments.dropFirst()))
    case "--contracts":
        guard arguments.count == 5 else {
            throw ToolError(message: "usage: KitBuildTool --contracts OUTPUT NAME CONTRACTS_MANIFEST SWIFTC")
        }
        let build = ContractsBuild(
            name: arguments[2], version: try ContractsManifest.version(at: arguments[3]),
            compiler: try CompilerVersion.of(swiftc: arguments[4]))
        try writeFile(arguments[1], ContractsSource.render(build))
    case "--kit":
        guard arguments.count == 4 else { throw ToolError(message: "usage: KitBuildTool --kit OUTPUT ABI_HEADER SWIFTC") }
        let source = KitBuildSource.render(
            sdkVersion: try ABIHeader.sdkVersion(in: arguments[2]), compiler: try CompilerVersion.of(swiftc: arguments[3]))
        try writeFile(arguments[1], source)
    default:
        throw ToolError(message: "usage: KitBuildTool --kit|--descriptor|--contracts …")
    }
}

/// `OUTPUT MANIFEST ABI_HEADER SWIFTC RESOURCES strings|no-strings [--contracts-target NAME CONTRACTS_MANIFEST]...`
func writeDescriptor(_ arguments: [String]) throws(ToolError) {
    let groups = arguments.split(separator: "--contracts-target", omittingEmptySubsequences: false)
    let fixed = Array(groups[0])
    guard fixed.count == 6, ["strings", "no-strings"].contains(fixed[5]) else {
        throw ToolError(
            message: "usage: KitBuildTool --descriptor OUTPUT MANIFEST ABI_HEADER SWIFTC RESOURCES strings|no-strings "
                + "[--contracts-target NAME CONTRACTS_MANIFEST]...")
    }
    let manifestPath = fixed[1]
    let manifest = try ManifestFile.parse(String(decoding: try readFile(manifestPath), as: UTF8.self), path: manifestPath)
    // Of the targets of other packages the module depends on, those its manifest imports: the
    // contracts libraries its route types come from. Each declares its version.
    var contracts: [ContractsBuild] = []
    for group in groups.dropFirst() {
        guard group.count == 2, let name = group.first, let contractsManifest = group.last else {
            throw ToolError(message: "--contracts-target takes NAME CONTRACTS_MANIFEST")
        }
        guard manifest.imports.contains(name), !contracts.contains(where: { $0.name == name }) else { continue }
        guard access(contractsManifest, F_OK) == 0 else {
            throw ToolError(
                message: "\(manifestPath): 'import \(name)' names a target of another package without a contracts.manifest: a module "
                    + "imports only contracts libraries there; give \(name) a '\(contractsManifest)' holding 'version 1.0.0' and "
                    + "apply the kit's ContractsVersionPlugin to it")
        }
        contracts.append(ContractsBuild(name: name, version: try ContractsManifest.version(at: contractsManifest)))
    }
    let source = DescriptorSource.render(
        manifest, abiVersion: try ABIHeader.version(in: fixed[2]), sdkVersion: try ABIHeader.sdkVersion(in: fixed[2]),
        compiler: try CompilerVersion.of(swiftc: fixed[3]), contracts: contracts,
        resources: DescriptorSource.Resources(folder: fixed[4], hasStrings: fixed[5] == "strings"), manifestPath: manifestPath)
    try writeFile(fixed[0], source)
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("KitBuildTool: error: \(error.message)")
    exit(1)
}
