// The kit's build tool. Two jobs, both run by build-tool plugins of this package:
//
//   KitFingerprintTool OUTPUT SOURCE...
//       writes KitFingerprint.swift: a digest of the ModuleKit and Contracts sources, so a
//       module built against one build of the kit is told apart from one built against
//       another (there is no stable ABI between builds);
//   KitFingerprintTool --descriptor OUTPUT MANIFEST ABI_HEADER RESOURCES strings|no-strings SOURCE...
//       writes a module's descriptor from its module.manifest: the Swift constants of its
//       Module type (with its resources folder, RESOURCES, and its strings folder when the
//       target ships Resources/Strings) and the same facts as plain bytes in the ELF section
//       the host reads before it opens the library.
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
    if arguments.first == "--descriptor" {
        guard arguments.count >= 7, ["strings", "no-strings"].contains(arguments[5]) else {
            throw ToolError(
                message: "usage: KitFingerprintTool --descriptor OUTPUT MANIFEST ABI_HEADER RESOURCES strings|no-strings SOURCE...")
        }
        let manifestPath = arguments[2]
        let text = String(decoding: try readFile(manifestPath), as: UTF8.self)
        let manifest = try ManifestFile.parse(text, path: manifestPath)
        let abiVersion = try ABIHeader.version(in: arguments[3])
        let sdkVersion = try ABIHeader.sdkVersion(in: arguments[3])
        let fingerprint = try Digest.ofKit(sources: Array(arguments.dropFirst(6)))
        let resources = DescriptorSource.Resources(folder: arguments[4], hasStrings: arguments[5] == "strings")
        let source = DescriptorSource.render(
            manifest, fingerprint: fingerprint, abiVersion: abiVersion, sdkVersion: sdkVersion, resources: resources,
            manifestPath: manifestPath)
        try writeFile(arguments[1], source)
        return
    }
    guard arguments.count >= 2 else { throw ToolError(message: "usage: KitFingerprintTool OUTPUT SOURCE...") }
    let hex = try Digest.ofKit(sources: Array(arguments.dropFirst()))
    try writeFile(arguments[0], KitFingerprintSource.render(hex))
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("KitFingerprintTool: error: \(error.message)")
    exit(1)
}
