// The kit's build tool. Three jobs, all run by build-tool plugins of this package:
//
//   KitFingerprintTool OUTPUT SOURCE...
//       writes KitFingerprint.swift: a digest of the ModuleKit and Contracts sources, so a
//       module built against one build of the kit is told apart from one built against
//       another (there is no stable ABI between builds);
//   KitFingerprintTool --descriptor OUTPUT MANIFEST ABI_HEADER RESOURCES strings|no-strings
//                      KIT_SOURCE... [--contracts-target NAME SOURCE...]...
//       writes a module's descriptor from its module.manifest: the Swift constants of its
//       Module type (with its resources folder, RESOURCES, and its strings folder when the
//       target ships Resources/Strings) and the same facts as plain bytes in the ELF section
//       the host reads before it opens the library, with the fingerprint of each contracts
//       target the manifest imports;
//   KitFingerprintTool --contracts OUTPUT NAME SOURCE...
//       writes a contracts library's fingerprint into an ELF section of its own, so the host
//       can tell which build of the library a module was compiled against.
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
        guard arguments.count >= 4 else { throw ToolError(message: "usage: KitFingerprintTool --contracts OUTPUT NAME SOURCE...") }
        let build = ContractsBuild(name: arguments[2], fingerprint: try Digest.of(sources: Array(arguments.dropFirst(3))))
        try writeFile(arguments[1], ContractsSource.render(build))
    default:
        guard arguments.count >= 2 else { throw ToolError(message: "usage: KitFingerprintTool OUTPUT SOURCE...") }
        let hex = try Digest.of(sources: Array(arguments.dropFirst()))
        try writeFile(arguments[0], KitFingerprintSource.render(hex))
    }
}

/// `OUTPUT MANIFEST ABI_HEADER RESOURCES strings|no-strings KIT_SOURCE... [--contracts-target NAME SOURCE...]...`
func writeDescriptor(_ arguments: [String]) throws(ToolError) {
    let groups = arguments.split(separator: "--contracts-target", omittingEmptySubsequences: false)
    let fixed = Array(groups[0])
    guard fixed.count >= 6, ["strings", "no-strings"].contains(fixed[4]) else {
        throw ToolError(
            message: "usage: KitFingerprintTool --descriptor OUTPUT MANIFEST ABI_HEADER RESOURCES strings|no-strings "
                + "KIT_SOURCE... [--contracts-target NAME SOURCE...]...")
    }
    let manifestPath = fixed[1]
    let manifest = try ManifestFile.parse(String(decoding: try readFile(manifestPath), as: UTF8.self), path: manifestPath)
    // Of the contracts targets the module depends on, those its manifest imports: the
    // libraries its route types come from.
    var contracts: [ContractsBuild] = []
    for group in groups.dropFirst() {
        guard let name = group.first, group.count >= 2 else { throw ToolError(message: "--contracts-target takes NAME SOURCE...") }
        guard manifest.imports.contains(name), !contracts.contains(where: { $0.name == name }) else { continue }
        contracts.append(ContractsBuild(name: name, fingerprint: try Digest.of(sources: Array(group.dropFirst()))))
    }
    let source = DescriptorSource.render(
        manifest, fingerprint: try Digest.of(sources: Array(fixed.dropFirst(5))), abiVersion: try ABIHeader.version(in: fixed[2]),
        sdkVersion: try ABIHeader.sdkVersion(in: fixed[2]), contracts: contracts,
        resources: DescriptorSource.Resources(folder: fixed[3], hasStrings: fixed[4] == "strings"), manifestPath: manifestPath)
    try writeFile(fixed[0], source)
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("KitFingerprintTool: error: \(error.message)")
    exit(1)
}
