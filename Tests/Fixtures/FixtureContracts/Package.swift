// swift-tools-version: 6.0
// Route protocols used only by the host's test modules. A package of its own with a dynamic
// product, like Contracts, so the test process and every test module share one copy.
import PackageDescription

let package = Package(
    name: "FixtureContracts",
    products: [
        .library(name: "FixtureContracts", type: .dynamic, targets: ["FixtureContracts"])
    ],
    targets: [
        .target(name: "FixtureContracts", swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")])
    ]
)
