// swift-tools-version: 6.1
// The libraries every ModuleHost module links. They live in their own package, built as
// dynamic products, so that the host and every module share one copy of them in the process
// (see docs/ARCHITECTURE.md, "Layout", at the root of the repository).
import Foundation
import PackageDescription

/// The toolchain's swift-syntax libraries (`usr/lib/swift/host`), which the route bridge
/// generator parses contracts with: found beside the PackageDescription library this manifest
/// runs with, so that no path of one machine is written here.
let toolchainHost: String = {
    // Read to the end: a single read of a /proc file stops at one page.
    let maps = FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
    let library = maps.split(separator: "\n").lazy.compactMap { line in line.split(separator: " ").last.map(String.init) }
        .first { $0.hasSuffix("/pm/ManifestAPI/libPackageDescription.so") }
    guard let library, let range = library.range(of: "/pm/ManifestAPI/") else { return "/usr/lib/swift/host" }
    return String(library[..<range.lowerBound]) + "/host"
}()

let package = Package(
    name: "ModuleKit",
    products: [
        .library(name: "ModuleKit", type: .dynamic, targets: ["ModuleKit"]),
        .library(name: "Contracts", type: .dynamic, targets: ["Contracts"]),
        // The entry point's C layout (modhost_abi.h, no code), for the host's loader.
        .library(name: "CModuleABI", targets: ["CModuleABI"]),
        // Applied to a module's target: generates its descriptor from its module.manifest.
        .plugin(name: "ModuleDescriptorPlugin", targets: ["ModuleDescriptorPlugin"]),
        // Applied to a contracts target of another package: records its version in its library.
        .plugin(name: "ContractsVersionPlugin", targets: ["ContractsVersionPlugin"]),
        // Applied to the target that carries routes across processes: generates a proxy and a
        // dispatcher for every route of the contracts libraries it depends on.
        .plugin(name: "RouteBridgePlugin", targets: ["RouteBridgePlugin"]),
    ],
    targets: [
        // MARK: The module boundary
        // The C layout of the handshake a module library answers before any Swift type crosses.
        .target(name: "CModuleABI"),
        // The kit's terminal helpers in C: a character's display width, Ctrl-Z in full screen.
        .target(name: "CTerminal"),
        // SHA-256 through the system's libcrypto (Debian: libssl3), opened on first use.
        .target(name: "CDigest"),
        // The system's SQLite (Debian: libsqlite3-dev), for module storage.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),

        // MARK: The kit
        // Locator, module protocol, entry point, lifecycle and the context handed to a module.
        .target(
            name: "ModuleKit",
            dependencies: ["CModuleABI", "CTerminal", "CDigest", "CSQLite"],
            plugins: ["KitBuildPlugin"]
        ),
        // Route protocols and shared entities of this app: protocols and value types only.
        .target(name: "Contracts"),

        // MARK: Build tooling
        // SwiftPM build plugins, in BuildTools/ (the repository's Plugins/ holds its feature
        // modules). Records the kit's SDK version and compiler in the kit, writes each module's
        // descriptor (Swift constants and an ELF section) from its manifest, and records a
        // contracts library's version in its library.
        .executableTarget(name: "KitBuildTool"),
        .plugin(name: "KitBuildPlugin", capability: .buildTool(), dependencies: ["KitBuildTool"], path: "BuildTools/KitBuildPlugin"),
        .plugin(
            name: "ModuleDescriptorPlugin", capability: .buildTool(), dependencies: ["KitBuildTool"],
            path: "BuildTools/ModuleDescriptorPlugin"),
        .plugin(
            name: "ContractsVersionPlugin", capability: .buildTool(), dependencies: ["KitBuildTool"],
            path: "BuildTools/ContractsVersionPlugin"),
        // Parses route protocols with the toolchain's swift-syntax (no package dependency).
        .executableTarget(
            name: "RouteBridgeTool",
            swiftSettings: [.unsafeFlags(["-I", toolchainHost])],
            linkerSettings: [
                .unsafeFlags(["-L", toolchainHost, "-Xlinker", "-rpath", "-Xlinker", toolchainHost]),
                .linkedLibrary("SwiftParser"), .linkedLibrary("SwiftSyntax"),
            ]),
        .plugin(
            name: "RouteBridgePlugin", capability: .buildTool(), dependencies: ["RouteBridgeTool"], path: "BuildTools/RouteBridgePlugin"),
    ]
)

/// The SDK: built with library evolution, so that a module built against one release keeps
/// loading in every later release of the same major, built by the same compiler (see README.md, "What a module can rely on").
let sdkTargets: Set<String> = ["ModuleKit", "Contracts"]

/// Concrete generic types (`[String: String]`, a service's box) made through their metadata
/// accessors, not found by their mangled names: a lookup by name asks the runtime whether each
/// argument conforms to its protocols, a scan of every conformance record loaded, again after
/// every `dlopen` (the runtime empties its cache then), and the kit runs between the host's
/// loads of its modules. Same types, same ABI; no lookup.
let concreteMetadataByAccessor = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]

for target in package.targets where target.type == .regular || target.type == .executable {
    guard !["CModuleABI", "CTerminal", "CDigest"].contains(target.name) else { continue }
    var settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
    if sdkTargets.contains(target.name) {
        // Imports are internal unless a file says `public import`: what the SDK's interface
        // rests on is then written down, and no non-resilient module (Foundation on Linux)
        // leaks into it.
        settings += [
            .enableUpcomingFeature("InternalImportsByDefault"),
            .unsafeFlags(["-enable-library-evolution"] + concreteMetadataByAccessor),
        ]
    }
    target.swiftSettings = (target.swiftSettings ?? []) + settings
}
