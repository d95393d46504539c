// swift-tools-version: 6.1
// The libraries every ModuleHost module links. They live in their own package, built as
// dynamic products, so that the host and every plugin share one copy of them in the process
// (see the README, "Layout").
import PackageDescription

let package = Package(
    name: "ModuleKit",
    products: [
        .library(name: "ModuleKit", type: .dynamic, targets: ["ModuleKit"]),
        .library(name: "Contracts", type: .dynamic, targets: ["Contracts"]),
        // Applied to a module's target: generates its descriptor from its module.manifest.
        .plugin(name: "ModuleDescriptorPlugin", targets: ["ModuleDescriptorPlugin"]),
        // Applied to a contracts target of another package: records its build in its library.
        .plugin(name: "ContractsFingerprintPlugin", targets: ["ContractsFingerprintPlugin"]),
    ],
    targets: [
        // MARK: The plugin boundary
        // The C layout of the handshake a module library answers before any Swift type crosses.
        .target(name: "CModuleABI"),
        // The system's SQLite (Debian: libsqlite3-dev), for module storage.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),

        // MARK: The kit
        // Locator, module protocol, entry point, lifecycle and the context handed to a module.
        .target(
            name: "ModuleKit",
            dependencies: ["CModuleABI", "CSQLite"],
            plugins: ["KitFingerprintPlugin"]
        ),
        // Route protocols and shared entities of this app: protocols and value types only.
        .target(name: "Contracts"),

        // MARK: Build tooling
        // Hashes the kit's sources into the fingerprint a module is compiled against, writes
        // each module's descriptor (Swift constants and an ELF section) from its manifest, and
        // records a contracts library's build in its library.
        .executableTarget(name: "KitFingerprintTool"),
        .plugin(
            name: "KitFingerprintPlugin",
            capability: .buildTool(),
            dependencies: ["KitFingerprintTool"]
        ),
        .plugin(
            name: "ModuleDescriptorPlugin",
            capability: .buildTool(),
            dependencies: ["KitFingerprintTool"]
        ),
        .plugin(
            name: "ContractsFingerprintPlugin",
            capability: .buildTool(),
            dependencies: ["KitFingerprintTool"]
        ),
    ]
)

for target in package.targets where target.type == .regular || target.type == .executable {
    guard target.name != "CModuleABI" else { continue }
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
