// swift-tools-version: 6.1
// The Photos module as a package of its own, like a module outside this repository: building
// or testing it alone compiles the kit, the test harness and Photos — nothing else. The root
// package depends on it for libPhotos.so and runs its tests with every other test.
import PackageDescription

let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")
// Not linked by Photos: the kit opens it on the first request. The tests depend on it so that
// it is built beside the kit they run.
let networking: Target.Dependency = .product(name: "ModuleKitNetworking", package: "ModuleKitNetworking")

let package = Package(
    name: "Photos",
    products: [
        .library(name: "Photos", type: .dynamic, targets: ["Photos"]),
        .library(name: "PhotosFeature", targets: ["PhotosFeature"]),
        .library(name: "PhotosDomain", targets: ["PhotosDomain"]),
        // Pages in the API's documented format, for these tests, the host's and the benchmark.
        .library(name: "PhotoPages", targets: ["PhotoPages"]),
    ],
    dependencies: [
        .package(name: "ModuleKit", path: "../../Sources/ModuleKit"),
        .package(path: "../../Sources/ModuleKit/ModuleKitTesting"),
        .package(path: "../../Sources/ModuleKit/ModuleKitNetworking"),
    ],
    targets: [
        // Entities, ports and use cases as a target of their own, so that the compiler holds
        // them to importing nothing.
        .target(name: "PhotosDomain", path: "Domain"),
        .target(
            name: "PhotosFeature", dependencies: [moduleKit, contracts, "PhotosDomain"], path: "Sources",
            exclude: ["module.manifest"], resources: [.copy("Resources/Strings"), .copy("Resources/Catalog")],
            plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]),
        .target(name: "Photos", dependencies: ["PhotosFeature", moduleKit], path: "Entry"),
        .target(name: "PhotoPages", path: "TestPages"),
        .testTarget(
            name: "PhotosTests",
            dependencies: [
                "PhotosFeature", "PhotosDomain", "PhotoPages", moduleKit, contracts, networking,
                .product(name: "ModuleKitTesting", package: "ModuleKitTesting"),
            ],
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
