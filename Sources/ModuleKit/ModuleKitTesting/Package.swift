// swift-tools-version: 6.1
// The SDK's test harness: a locator with test doubles, to unit-test one module without the
// host. A package of its own, inside the kit's folder, because a target of the kit package
// that depends on the ModuleKit *target* would link a second, static copy of ModuleKit into
// every test binary beside libModuleKit.so; from here it depends on the kit's dynamic
// products, as a module does.
import PackageDescription

let package = Package(
    name: "ModuleKitTesting",
    products: [
        .library(name: "ModuleKitTesting", targets: ["ModuleKitTesting"])
    ],
    dependencies: [
        .package(name: "ModuleKit", path: "..")
    ],
    targets: [
        .target(
            name: "ModuleKitTesting",
            dependencies: [
                .product(name: "ModuleKit", package: "ModuleKit"),
                .product(name: "Contracts", package: "ModuleKit"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
