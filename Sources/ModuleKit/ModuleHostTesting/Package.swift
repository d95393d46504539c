// swift-tools-version: 6.1
// The SDK's integration-test library: a module's tests run it inside the real host, with a
// private world of their own (data folder, modules.json), commands, and the app on a real
// pseudo-terminal read back as a screen. A package of its own, inside the kit's folder, like
// ModuleKitTesting; it drives the `modhost` executable and links nothing of the kit.
import PackageDescription

let package = Package(
    name: "ModuleHostTesting",
    products: [
        .library(name: "ModuleHostTesting", targets: ["ModuleHostTesting"])
    ],
    targets: [
        // forkpty and posix_spawn with the child's defaults: what may run between fork and exec.
        .target(name: "CPseudoTerminal", linkerSettings: [.linkedLibrary("util")]),
        .target(
            name: "ModuleHostTesting", dependencies: ["CPseudoTerminal"],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
