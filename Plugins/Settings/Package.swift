// swift-tools-version: 6.1
// The Settings module as a package of its own, like a module outside this repository: building or
// testing it alone compiles the kit, the test harness and Settings — nothing else. The root package
// depends on it for libSettings.so and runs its tests with every other test.
import PackageDescription

let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")

let package = Package(
    name: "Settings",
    products: [
        .library(name: "Settings", type: .dynamic, targets: ["Settings"]),
        .library(name: "SettingsFeature", targets: ["SettingsFeature"]),
    ],
    dependencies: [
        .package(name: "ModuleKit", path: "../../Sources/ModuleKit"),
        .package(path: "../../Sources/ModuleKit/ModuleKitTesting"),
    ],
    targets: [
        .target(
            name: "SettingsFeature", dependencies: [moduleKit, contracts], path: "Sources", exclude: ["module.manifest"],
            resources: [.copy("Resources/Strings")], plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]),
        .target(name: "Settings", dependencies: ["SettingsFeature", moduleKit], path: "Entry"),
        .testTarget(
            name: "SettingsTests",
            dependencies: ["SettingsFeature", moduleKit, contracts, .product(name: "ModuleKitTesting", package: "ModuleKitTesting")],
            path: "Tests"),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
    // The module's code uses FoundationEssentials, never the rest of Foundation: each file sees
    // only what it imports, and a release build does not link Foundation (and ICU behind it,
    // about 2 ms of every start) for an import made elsewhere, such as SwiftPM's resource
    // accessor, whose code a release build drops.
    guard target.type != .test else { continue }
    target.swiftSettings? += [
        .enableUpcomingFeature("MemberImportVisibility"),
        .unsafeFlags(
            ["Foundation", "FoundationInternationalization"].flatMap { ["-Xfrontend", "-disable-autolink-library", "-Xfrontend", $0] },
            .when(configuration: .release)),
        // Concrete generic types made through their metadata accessors, not found by mangled
        // name (a scan of every loaded conformance record, after every library the host opens).
        .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]),
    ]
}
