// swift-tools-version: 6.1
// The URLSession transport behind the kit's HTTPClient, as `libModuleKitNetworking.so`. No
// module links it: the kit opens it on a client's first request, so FoundationNetworking,
// libcurl and the TLS libraries load only in a run that sends one. A package of its own,
// inside the kit's folder, for the reason ModuleKitTesting is: from here it links the kit's
// dynamic libModuleKit.so (one copy of HTTPTransport in the process), where a target of the
// kit package would carry a second, static copy of ModuleKit.
import PackageDescription

let package = Package(
    name: "ModuleKitNetworking",
    products: [
        .library(name: "ModuleKitNetworking", type: .dynamic, targets: ["ModuleKitNetworking"])
    ],
    dependencies: [
        .package(name: "ModuleKit", path: "..")
    ],
    targets: [
        .target(
            name: "ModuleKitNetworking",
            dependencies: [.product(name: "ModuleKit", package: "ModuleKit")],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
