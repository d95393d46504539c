// swift-tools-version: 6.0
// Route protocols used only by the host's test modules. A package of its own with a dynamic
// product built with library evolution, like Contracts, so the test process and every test
// module share one copy; its library records its version (the kit's ContractsVersionPlugin,
// from contracts.manifest), as a third party's would.
import PackageDescription

let package = Package(
    name: "FixtureContracts",
    products: [
        .library(name: "FixtureContracts", type: .dynamic, targets: ["FixtureContracts"])
    ],
    dependencies: [.package(path: "../../../Sources/ModuleKit")],
    targets: [
        .target(
            name: "FixtureContracts",
            exclude: ["contracts.manifest"],
            swiftSettings: [
                .swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"), .unsafeFlags(["-enable-library-evolution"]),
            ],
            plugins: [.plugin(name: "ContractsVersionPlugin", package: "ModuleKit")]
        )
    ]
)
