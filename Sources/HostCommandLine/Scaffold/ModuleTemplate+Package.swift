/// The package's manifest, the module's manifest and the README.
extension ModuleTemplate {
    var packageManifest: String {
        """
        // swift-tools-version: 6.1
        // The \(name) module for ModuleHost: `swift build` makes .build/debug/lib\(name).so.
        import PackageDescription

        /// The ModuleKit SDK (\(sdkVersion)) this module is built against: the kit of the modhost that
        /// wrote this package. The library loads in every host of SDK \(sdkVersion.split(separator: ".").first ?? "1").x from
        /// this release on, built by the same Swift compiler; the host refuses it otherwise and says why.
        let kit = \(Self.swiftLiteral(kitFolder))

        let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
        let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")\(routeDependencyDeclaration)

        let package = Package(
            name: "\(name)",
            products: [
                // A dynamic library: the host opens it with dlopen.
                .library(name: "\(name)", type: .dynamic, targets: ["\(name)"]),\(routeUserProduct)
            ],
            dependencies: [
                .package(name: "ModuleKit", path: kit),
                .package(path: kit + "/ModuleKitTesting"),
                .package(path: kit + "/ModuleHostTesting"),\(routePackageDependency)
            ],
            targets: [
                .target(
                    name: "\(name)",
                    dependencies: [moduleKit, contracts\(routeTargetDependency)],
                    exclude: ["module.manifest"],
                    resources: [.copy("Resources/Strings")],
                    swiftSettings: [.swiftLanguageMode(.v6)],
                    // Generates the module's name, version, routes and descriptor from module.manifest.
                    plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]
                ),
                .testTarget(
                    name: "\(name)Tests",
                    dependencies: [
                        "\(name)", moduleKit, .product(name: "ModuleKitTesting", package: "ModuleKitTesting")\(routeTargetDependency),
                    ],
                    swiftSettings: [.swiftLanguageMode(.v6)]
                ),
                // \(name) inside the real modhost, beside the shipped modules: it runs the host,
                // and loads .build/debug/lib\(name).so (swift build makes it).
                .testTarget(
                    name: "\(name)IntegrationTests",
                    dependencies: [.product(name: "ModuleHostTesting", package: "ModuleHostTesting")],
                    swiftSettings: [.swiftLanguageMode(.v6)]
                ),\(routeUserTarget)
            ]
        )

        """
    }

    var moduleManifest: String {
        """
        # \(name)'s manifest: its name, version and routes, written once. The build generates the
        # module's constants and the descriptor the host reads before it opens the library.
        # Add 'provides', 'requires' or 'uses' lines with route names, and 'import' the module
        # that declares them.
        type \(name)Module
        name \(name)
        version 0.1.0
        import Contracts\(withRoute ? "\nimport \(contracts)\nprovides \(route)" : "")

        """
    }

    var readme: String {
        """
        # \(name)

        A module for ModuleHost, written by `modhost new` against ModuleKit SDK \(sdkVersion)
        (the kit sources at `\(kitFolder)`).

        ```sh
        swift build --package-path .     # makes .build/debug/lib\(name).so
        swift test --package-path .      # its unit tests, on the kit's test harness; no host
        ```

        To run it in the host, add this entry to the `modules` of your `modules.json` (a relative
        `library` is taken from the folder of `modules.json`):

        ```json
        { "name": "\(name)", "enabled": true, "library": "PATH/TO/\(name)/.build/debug/lib\(name).so" }
        ```

        then `modhost \(lowercased) hello`, or `modhost` and choose "\(name)" on Home.

        - `Sources/\(name)/module.manifest`: the module's name, version and routes. The build
          generates its constants and the descriptor the host reads before it opens the library.
        - `Sources/\(name)/\(name)Module.swift`: the module, its command, its Home entry and the
          entry point `modhost_module_entry`.
        - `Sources/\(name)/Resources/Strings`: its strings in en, es, fr, de, it and el.
        - `Tests/\(name)Tests`: unit tests on `ModuleTestHarness`.
        - `Tests/\(name)IntegrationTests`: \(name) in the real host with the shipped modules
          (`ModuleHostTesting`): its command, and its Home entry on a pseudo-terminal. They run
          the modhost that wrote this package (`MODHOST_EXECUTABLE` names another) and load
          `.build/debug/lib\(name).so`: run `swift build` before `swift test`.

        Ship `lib\(name).so` with the `\(name)_\(name).resources` folder beside it (both in
        `.build/debug` or `.build/release`). It loads in any host of the same SDK major whose
        minor is at least \(sdkVersion)'s, built by the same Swift compiler; the host refuses it
        otherwise and says what to do (`let kit` in `Package.swift` names the kit it builds
        against). A route another module should use goes in a package of its own with a
        `type: .dynamic` library product, built with library evolution, that both modules depend
        on; declared inside this package, each module would carry its own copy, and the host
        refuses that. Ship that library beside the modules that use it, and give it a version in
        its `contracts.manifest`: the host refuses a module that needs another major of it, or a
        newer minor than the one it holds.

        """
    }
}
