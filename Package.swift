// swift-tools-version: 6.0
// ModuleHost: a host process that loads feature modules (dynamic libraries) listed in
// modules.json and runs the app they make up. See README.md and DESIGN.md.
import PackageDescription

// MARK: - Shared kit
// ModuleKit and Contracts come from their own package as dynamic products, so that the host
// and every module share exactly one copy (DESIGN.md, "One copy of the kit").
let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")
let fixtureContracts: Target.Dependency = .product(name: "FixtureContracts", package: "FixtureContracts")

// MARK: - Feature modules
// One dynamic library per feature module, lib<Name>.so, each in Plugins/<Name>.
let featureModules: [String] = []

// MARK: - Test modules
// Real module libraries the host's own tests load: a provider, its consumer, one that throws
// in start, one that requires a route nobody provides, two that require each other, and one
// with optional routes.
let fixtureModules = [
    "FixtureProvider", "FixtureConsumer", "FixtureThrowsOnStart", "FixtureNeedsNobody",
    "FixtureCycleA", "FixtureCycleB", "FixtureOptional",
]
// C libraries that break the entry-point handshake in one way each.
let brokenLibraries = ["BrokenNoEntry", "BrokenWrongABI", "BrokenNullName", "BrokenForeignFingerprint"]

let package = Package(
    name: "ModuleHost",
    products: [
        .executable(name: "modhost", targets: ["modhost"]),
        .executable(name: "modhost-bench", targets: ["ModhostBench"]),
        .library(name: "ModuleKitTesting", targets: ["ModuleKitTesting"]),
    ]
        + (featureModules + fixtureModules + brokenLibraries).map {
            .library(name: $0, type: .dynamic, targets: [$0])
        },
    dependencies: [
        .package(path: "Sources/ModuleKit"),
        .package(path: "Tests/Fixtures/FixtureContracts"),
    ],
    targets: [
        // MARK: Host
        // Reads modules.json, loads libraries, orders modules and runs their lifecycle.
        .target(name: "HostCore", dependencies: [moduleKit, contracts]),
        // The command line: parses arguments and calls HostCore.
        .executableTarget(name: "modhost", dependencies: ["HostCore"]),

        // MARK: Module developer support
        // A locator with test doubles, to unit-test one module without the host.
        .target(name: "ModuleKitTesting", dependencies: [moduleKit, contracts]),

        // MARK: Benchmarks
        // Start-up, load and resolve costs against baselines (release build).
        .executableTarget(name: "ModhostBench", dependencies: ["HostCore", fixtureContracts], path: "Benchmarks/ModhostBench"),

        // MARK: Tests
        // Temporary folders, the build folder and child processes, for the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ModuleKitTests", dependencies: [moduleKit, contracts, "ModuleKitTesting"]),
        .testTarget(name: "HostCoreTests", dependencies: ["HostCore", moduleKit, fixtureContracts, "TestSupport"]),
        .testTarget(name: "ModhostTests", dependencies: ["TestSupport"]),
    ]
        + featureModules.map { .target(name: $0, dependencies: [moduleKit, contracts], path: "Plugins/\($0)") }
        + fixtureModules.map {
            .target(name: $0, dependencies: [moduleKit, fixtureContracts], path: "Tests/Fixtures/Modules/\($0)")
        }
        + brokenLibraries.map { .target(name: $0, path: "Tests/Fixtures/Broken/\($0)", publicHeadersPath: ".") }
)

// MARK: - Settings for every Swift target
for target in package.targets where !brokenLibraries.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
