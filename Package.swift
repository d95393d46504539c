// swift-tools-version: 6.0
// ModuleHost: a host process that loads feature modules (dynamic libraries) listed in
// modules.json and runs the app they make up. See README.md.
import PackageDescription

// MARK: - Shared kit
// ModuleKit and Contracts come from their own package as dynamic products, so that the host
// and every module share exactly one copy (docs/ARCHITECTURE.md, "Layout").
let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")
/// The C layout of the entry point a module library answers (modhost_abi.h), for the loader.
let moduleABI: Target.Dependency = .product(name: "CModuleABI", package: "ModuleKit")
let fixtureContracts: Target.Dependency = .product(name: "FixtureContracts", package: "FixtureContracts")
/// The URLSession transport the kit opens on a first request (Sources/ModuleKit/ModuleKitNetworking).
let networking: Target.Dependency = .product(name: "ModuleKitNetworking", package: "ModuleKitNetworking")
/// The SDK's test harness (Sources/ModuleKit/ModuleKitTesting): a module's unit tests need no host.
let moduleKitTesting: Target.Dependency = .product(name: "ModuleKitTesting", package: "ModuleKitTesting")
/// The SDK's integration-test library (Sources/ModuleKit/ModuleHostTesting): a module's tests
/// run it in the real host, on a real terminal.
let moduleHostTesting: Target.Dependency = .product(name: "ModuleHostTesting", package: "ModuleHostTesting")
/// Generates a module's name, version, routes and ELF descriptor from its module.manifest.
func moduleDescriptor() -> Target.PluginUsage { .plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit") }
/// Generates a proxy and a dispatcher for every route of the contracts a target depends on.
let routeBridges: Target.PluginUsage = .plugin(name: "RouteBridgePlugin", package: "ModuleKit")

// MARK: - Feature modules
// One package per feature module, in Plugins/<Name> (see Plugins/README.md): its library
// lib<Name>.so, its code (<Name>Feature) and its unit tests, built and tested alone with
// `swift test --package-path Plugins/<Name>` like a module outside this repository. This package
// depends on each for its library, and runs its unit tests with every other test (the test
// targets of a dependency never run on their own).
let featureModules = ["Auth", "Geo", "Photos", "Settings"]
func feature(_ name: String) -> Target.Dependency { .product(name: "\(name)Feature", package: name) }
let photosDomain: Target.Dependency = .product(name: "PhotosDomain", package: "Photos")
let photoPages: Target.Dependency = .product(name: "PhotoPages", package: "Photos")
/// What a feature module's unit tests link beyond its code and the SDK.
let featureTestDependencies: [String: [Target.Dependency]] = ["Photos": [networking, photosDomain, photoPages]]

/// The three targets of a test module laid out like a feature module, under `folder`:
/// Sources/ (target <Name>Feature), Entry/ (the entry point, target <Name>) and Tests/.
func layeredModule(_ name: String, in folder: String, contracts: Target.Dependency) -> [Target] {
    let feature = Target.Dependency.target(name: "\(name)Feature")
    return [
        .target(
            name: "\(name)Feature", dependencies: [moduleKit, contracts], path: "\(folder)/Sources", exclude: ["module.manifest"],
            plugins: [moduleDescriptor()]),
        .target(name: name, dependencies: [feature, moduleKit], path: "\(folder)/Entry"),
        .testTarget(
            name: "\(name)Tests", dependencies: [feature, moduleKit, contracts, moduleKitTesting, .target(name: "TestSupport")],
            path: "\(folder)/Tests"),
    ]
}

// MARK: - Test modules
// Real module libraries the host's own tests load: a provider (laid out like a feature
// module), its consumer, one that throws in start, one that requires a route nobody
// provides, two that require each other, one with optional routes, one that misbehaves on
// demand and one that requires it, the SDK guide's example module (ReadmeNotes), a pair that
// each carry their own copy of one route (FixtureSplitProvider, FixtureSplitConsumer), one
// that uses GeoRoute, loaded by the SDK compatibility tests in hosts of changed kits
// (FixtureRouteUser), one that crashes only beside FixtureProvider (FixtureJealous), and a
// GeoRoute provider that misbehaves on demand in a process of its own (FixtureIsolatedGeo), and
// one that tries what a sandbox refuses (FixtureSandboxProbe), and two builds of one module
// for live restart (FixtureLiveOne and FixtureLiveTwo, both module FixtureLive).
let layeredFixtures = ["FixtureProvider"]
let flatFixtures = [
    "ReadmeNotes", "FixtureMisbehaves", "FixtureNeedsMisbehaviour", "FixtureConsumer", "FixtureThrowsOnStart", "FixtureNeedsNobody",
    "FixtureCycleA",
    "FixtureCycleB",
    "FixtureOptional", "FixtureSplitProvider", "FixtureSplitConsumer", "FixtureRouteUser", "FixtureJealous", "FixtureIsolatedGeo",
    "FixtureSandboxProbe", "FixtureLiveOne", "FixtureLiveTwo",
]
/// What a flat test module needs beyond the kit and FixtureContracts: the split pair each link
/// the plain target FixtureSplitContracts, so each library holds its own copy of SplitRoute.
let flatFixtureDependencies: [String: [Target.Dependency]] = [
    "FixtureSplitProvider": ["FixtureSplitContracts"], "FixtureSplitConsumer": ["FixtureSplitContracts"],
]
// C libraries that break the entry-point handshake in one way each.
let brokenLibraries = ["BrokenNoEntry", "BrokenWrongABI", "BrokenNullName", "BrokenForeignSDK"]
// C libraries that misbehave when opened or called: the crash guard's and probe's fixtures (two
// that reach outside the process: a daemon after setsid, a SIGSTOP to the parent), and one that
// leaves evidence of having run, for the trust tests.
let hostileLibraries = [
    "HostileAbortInConstructor", "HostileExitInConstructor", "HostileQuietExitInConstructor", "HostileSleepsInConstructor",
    "HostileSegfaultInEntry", "HostileGarbageDescriptor", "HostileLeavesEvidence", "HostileDaemonInConstructor",
    "HostileStopsItsParent",
]

/// The host's layers, for the tests and benchmarks that reach into them.
let hostLayers: [Target.Dependency] = [
    "HostModel", "HostGraph", "HostLoading", "HostLifecycle", "HostApp", "HostCommandLine", "HostProcesses", "HostIsolation", "HostSandbox",
]

var targets: [Target] = [
    // MARK: Host
    // Six layers, each a target, so the compiler holds their order (docs/ARCHITECTURE.md,
    // "Layers"): each depends only on those above it in this list.
    // The words: messages and strings, modules.json, descriptors, the trust checks.
    .target(name: "HostModel", dependencies: [moduleKit, contracts, "CLibraryFile"], resources: [.copy("Resources/Strings")]),
    // The order of modules from their descriptors.
    .target(name: "HostGraph", dependencies: ["HostModel", moduleKit, contracts]),
    // Code the host did not write: compatibility rules, the crash guard, the loader.
    .target(name: "HostLoading", dependencies: ["HostModel", moduleKit, contracts, moduleABI, "CHostGuard", "CLibraryFile"]),
    // Routes across processes: the link's calls and answers, and the proxies and dispatchers
    // generated from the contracts' route protocols.
    .target(name: "HostIsolation", dependencies: ["HostProcesses", moduleKit, contracts], plugins: [routeBridges]),
    // The runtime: plan, load, start and stop one modules.json's modules.
    .target(
        name: "HostLifecycle",
        dependencies: ["HostModel", "HostGraph", "HostLoading", "HostIsolation", "HostProcesses", "HostSandbox", moduleKit, contracts]),
    // The app the modules make up: its root (Welcome or Home) and its full-screen mode.
    .target(name: "HostApp", dependencies: ["HostLifecycle", "HostIsolation", "HostProcesses", moduleKit, contracts, "CHostGuard"]),
    // The command line: each command's declaration and handler, `modhost new`, `dev`, `check`.
    .target(
        name: "HostCommandLine",
        dependencies: [
            "HostModel", "HostGraph", "HostLoading", "HostLifecycle", "HostApp", "HostProcesses", "HostIsolation", "HostSandbox",
            moduleKit, contracts, "CHostGuard",
        ]),
    // The host's child processes: started from the running binary's open file, their
    // descendants adopted and ended, temporary folders removed on every way out.
    .target(name: "HostProcesses", dependencies: ["CHostProcess"]),
    // The async-signal-safe guard around module code (crash, exit, hang, signals, terminal).
    .target(name: "CHostGuard", linkerSettings: [.linkedLibrary("pthread")]),
    // What the host reads from a library file without running it: its ELF sections (bounded)
    // and which loaded image an address is in. (Its SHA-256 is the kit's, through libcrypto.)
    .target(name: "CLibraryFile", linkerSettings: [.linkedLibrary("dl")]),
    // Close-on-exec pipes and a check's process scope (subreaper, Landlock signal scope).
    .target(name: "CHostProcess"),
    // The sandbox a module's own process puts itself in: resource limits, Landlock, seccomp.
    .target(name: "HostSandbox", dependencies: ["CHostSandbox", "HostProcesses"]),
    .target(name: "CHostSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
    // The executable: installs the guard and runs the command line.
    .executableTarget(name: "modhost", dependencies: ["HostCommandLine"]),

    // MARK: Benchmarks
    // Start-up, load and resolve costs against baselines (release build).
    .executableTarget(
        name: "ModhostBench",
        dependencies: [
            moduleKit, contracts, fixtureContracts, feature("Auth"), feature("Geo"), feature("Photos"), photosDomain, photoPages,
            moduleKitTesting,
            moduleHostTesting, "TestSupport",
        ] + hostLayers,
        path: "Benchmarks/ModhostBench"),
    // The start-up floor modhost-bench compares with: a C program that only dlopens libraries.
    .executableTarget(name: "modhost-floor", path: "Benchmarks/StartupFloor"),
    // The floor of a call into a module in a process of its own: 64 bytes over a socketpair.
    .executableTarget(name: "modhost-socket-floor", path: "Benchmarks/SocketFloor"),
    // A program's peak memory, measured exactly (fork and wait4), for the same benchmark.
    .executableTarget(name: "modhost-peak", path: "Benchmarks/PeakMemory"),

    // MARK: Tests
    // Temporary folders, the build folder and child processes, for the test targets.
    .target(name: "TestSupport", dependencies: [moduleHostTesting, "CTestRun"], path: "Tests/TestSupport"),
    // One folder of temporary files per test process, set as TMPDIR as the tests load and
    // removed as they end (a run used to leave about 2 000 folders in /tmp).
    .target(name: "CTestRun", path: "Tests/CTestRun"),
    // A route in a plain target, linked statically into two test libraries (a mistake).
    .target(name: "FixtureSplitContracts", path: "Tests/Fixtures/SplitContracts"),
    .testTarget(name: "ModuleKitTests", dependencies: [moduleKit, contracts, networking, moduleKitTesting, "TestSupport"]),
    .testTarget(
        name: "HostTests",
        dependencies: hostLayers + [
            moduleKit, contracts, moduleABI, fixtureContracts, "TestSupport", "CTestRun", "CHostProcess", "CHostSandbox",
        ]),
    .testTarget(name: "ModhostTests", dependencies: ["TestSupport", moduleKitTesting, moduleHostTesting]),
    // The integration-test library's own tests: its screen model against tmux, its worlds.
    .testTarget(name: "ModuleHostTestingTests", dependencies: [moduleHostTesting, "TestSupport"]),
    // Builds every feature module's library on 'swift build', and the networking library the
    // kit opens on a module's first request; nothing links it.
    .target(name: "ModuleLibraries", dependencies: featureModules.map { .product(name: $0, package: $0) } + [networking]),
]
for name in featureModules {
    targets.append(
        .testTarget(
            name: "\(name)Tests",
            dependencies: [feature(name), moduleKit, contracts, moduleKitTesting] + (featureTestDependencies[name] ?? []),
            path: "Plugins/\(name)/Tests"))
}
for name in layeredFixtures {
    targets += layeredModule(name, in: "Tests/Fixtures/Modules/\(name)", contracts: fixtureContracts)
}
for name in flatFixtures {
    targets.append(
        .target(
            name: name, dependencies: [moduleKit, contracts, fixtureContracts] + (flatFixtureDependencies[name] ?? []),
            path: "Tests/Fixtures/Modules/\(name)",
            exclude: ["module.manifest"], plugins: [moduleDescriptor()]))
}
for name in brokenLibraries {
    targets.append(.target(name: name, path: "Tests/Fixtures/Broken/\(name)", publicHeadersPath: "."))
}
for name in hostileLibraries {
    targets.append(.target(name: name, path: "Tests/Fixtures/Hostile/\(name)", publicHeadersPath: "."))
}

let moduleLibraries: [Product] = (layeredFixtures + flatFixtures + brokenLibraries + hostileLibraries).map {
    .library(name: $0, type: .dynamic, targets: [$0])
}

let package = Package(
    name: "ModuleHost",
    products: [
        .executable(name: "modhost", targets: ["modhost"]),
        .executable(name: "modhost-bench", targets: ["ModhostBench"]),
        .executable(name: "modhost-floor", targets: ["modhost-floor"]),
        .executable(name: "modhost-socket-floor", targets: ["modhost-socket-floor"]),
        .executable(name: "modhost-peak", targets: ["modhost-peak"]),
    ] + moduleLibraries,
    dependencies: [
        .package(path: "Sources/ModuleKit"),
        .package(path: "Sources/ModuleKit/ModuleKitTesting"),
        .package(path: "Sources/ModuleKit/ModuleHostTesting"),
        .package(path: "Sources/ModuleKit/ModuleKitNetworking"),
        .package(path: "Tests/Fixtures/FixtureContracts"),
    ] + featureModules.map { .package(path: "Plugins/\($0)") },
    targets: targets
)

// MARK: - Settings for every Swift target
let cTargets = Set(brokenLibraries + hostileLibraries + ["CHostGuard", "CLibraryFile", "CHostProcess", "CHostSandbox"])
for target in package.targets where !cTargets.contains(target.name) && target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
// The host sees only the members of what each file imports: a member of Foundation reached
// through another module's import (the resource accessor SwiftPM writes imports Foundation)
// would link the whole of Foundation into every start (docs/PERFORMANCE.md).
let hostTargets: Set<String> = [
    "HostModel", "HostGraph", "HostLoading", "HostLifecycle", "HostApp", "HostCommandLine", "HostProcesses", "HostIsolation", "HostSandbox",
    "modhost",
]
// Nor is Foundation linked because a module it imports imported it: a release build links only
// FoundationEssentials, and a use of the rest of Foundation fails its link (an undefined
// symbol) instead of costing every start. (A debug build keeps the resource accessor's use of
// `Bundle`, whose code a release build drops; Scripts/check-release.sh checks the release one.)
let foundationNotLinked = ["Foundation", "FoundationInternationalization"].flatMap {
    ["-Xfrontend", "-disable-autolink-library", "-Xfrontend", $0]
}
// Concrete generic types made through their metadata accessors, not found by mangled name:
// each lookup by name scans every loaded conformance record, again after every `dlopen`
// (docs/PERFORMANCE.md, "Generic types found by name").
let concreteMetadataByAccessor = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]
for target in package.targets where hostTargets.contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("MemberImportVisibility"), .unsafeFlags(foundationNotLinked, .when(configuration: .release)),
            .unsafeFlags(concreteMetadataByAccessor),
        ]
}
