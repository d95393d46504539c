// swift-tools-version: 6.0
// Route protocols used only by the host's test modules. A package of its own with a dynamic
// product, like Contracts, so the test process and every test module share one copy; its
// library records its build (the kit's ContractsFingerprintPlugin), as a third party's would.
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
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")],
            plugins: [.plugin(name: "ContractsFingerprintPlugin", package: "ModuleKit")]
        )
    ]
)
