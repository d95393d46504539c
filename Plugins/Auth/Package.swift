// swift-tools-version: 6.1
// The Auth module as a package of its own, like a module outside this repository: building or
// testing it alone compiles the kit, the test harness and Auth — nothing else. The root package
// depends on it for libAuth.so and runs its tests with every other test.
import PackageDescription

let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")

let package = Package(
    name: "Auth",
    products: [
        .library(name: "Auth", type: .dynamic, targets: ["Auth"]),
        .library(name: "AuthFeature", targets: ["AuthFeature"]),
    ],
    dependencies: [
        .package(name: "ModuleKit", path: "../../Sources/ModuleKit"),
        .package(path: "../../Sources/ModuleKit/ModuleKitTesting"),
    ],
    targets: [
        // libcrypt's header (Debian: libcrypt-dev): yescrypt password hashing. The library itself
        // is opened on the first hash (PasswordHasher), not linked.
        .systemLibrary(name: "CCrypt", path: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        .target(
            name: "AuthFeature", dependencies: [moduleKit, contracts, "CCrypt"], path: "Sources", exclude: ["module.manifest"],
            resources: [.copy("Resources/Strings")], plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]),
        .target(name: "Auth", dependencies: ["AuthFeature", moduleKit], path: "Entry"),
        .testTarget(
            name: "AuthTests",
            dependencies: ["AuthFeature", moduleKit, contracts, .product(name: "ModuleKitTesting", package: "ModuleKitTesting")],
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
