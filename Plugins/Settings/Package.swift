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

for target in package.targets {
    target.swiftSettings = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
}
