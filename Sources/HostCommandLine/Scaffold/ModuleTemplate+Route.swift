import HostModel

/// The route's files and fragments, with `--route`: a contracts package, the route, a second
/// module that uses it (each fragment empty without `--route`).
extension ModuleTemplate {
    var contractsVariable: String { "routeContracts" }

    var routeDependencyDeclaration: String {
        guard withRoute else { return "" }
        return """

            /// \(route) lives in a package of its own with a dynamic product, so that the provider
            /// and every module that uses it share one copy of the protocol in the process.
            let \(contractsVariable): Target.Dependency = .product(name: "\(contracts)", package: "\(contracts)")
            """
    }

    var registerBody: String {
        guard withRoute else { return "" }
        return "\n        // What other modules reach through \(route).\n"
            + "        try registry.route((any \(route)).self, .singleton(\(name)Greeter()))\n    "
    }

    var routePackageDependency: String { withRoute ? "\n        .package(path: \"\(contracts)\")," : "" }

    var routeTargetDependency: String { withRoute ? ", \(contractsVariable)" : "" }

    /// A second module, in this package, that uses the route: the integration test proves that
    /// another module reaches it through the host.
    var routeUser: String { "\(name)Caller" }

    var routeUserProduct: String {
        guard withRoute else { return "" }
        return """

                    // A second module that uses \(route), for the integration test (ship it or not).
                    .library(name: "\(routeUser)", type: .dynamic, targets: ["\(routeUser)"]),
            """
    }

    var routeUserTarget: String {
        guard withRoute else { return "" }
        return """

                    .target(
                        name: "\(routeUser)",
                        dependencies: [moduleKit, contracts, \(contractsVariable)],
                        exclude: ["module.manifest"],
                        swiftSettings: [.swiftLanguageMode(.v6)],
                        plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]
                    ),
            """
    }

    var routeUserManifest: String {
        """
        # A second module that uses \(route) through the host, as a module of another package
        # would: it imports \(contracts) and declares the route, never \(name) itself.
        type \(routeUser)Module
        name \(routeUser)
        version 0.1.0
        import Contracts
        import \(contracts)
        uses \(route)

        """
    }

    var routeUserSource: String {
        """
        import \(contracts)
        import ModuleKit

        /// Calls \(route) through the host: `modhost \(ModuleName(routeUser).commandWord) greet NAME`.
        final class \(routeUser)Module: Module {
            init() {}

            func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

            func commands(_ context: ModuleContext) -> [ModuleCommand] {
                [
                    ModuleCommand(name: "greet", summary: "Greet through \(route)", arguments: "NAME") { invocation in
                        guard let greeter = try context.resolver.optional((any \(route)).self) else {
                            throw CommandFailure("\(route) is not provided: is \(name) enabled?")
                        }
                        context.ui.print(greeter.greeting(for: invocation.arguments.first ?? "world"))
                    }
                ]
            }
        }

        @_cdecl("modhost_module_entry")
        public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(\(routeUser)Module.self, request) }

        """
    }

    var contractsManifest: String {
        """
        // swift-tools-version: 6.1
        // \(route): the route \(name) provides, for any module to use. A package of its own with
        // a dynamic library product: every module that depends on it shares one copy. Built with
        // library evolution and versioned in Sources/\(contracts)/contracts.manifest, so that a
        // module built against one version runs with any later minor of the same major.
        import PackageDescription

        /// The same kit as \(name)'s: its build plugin records this library's version, so the host
        /// refuses a module built against a version that does not fit the one it holds.
        let kit = \(Self.swiftLiteral(kitFolder))

        let package = Package(
            name: "\(contracts)",
            products: [
                .library(name: "\(contracts)", type: .dynamic, targets: ["\(contracts)"])
            ],
            dependencies: [.package(name: "ModuleKit", path: kit)],
            targets: [
                .target(
                    name: "\(contracts)",
                    exclude: ["contracts.manifest"],
                    swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-enable-library-evolution"])],
                    plugins: [.plugin(name: "ContractsVersionPlugin", package: "ModuleKit")]
                )
            ]
        )

        """
    }

    var contractsVersion: String {
        """
        # The version of \(contracts). Bump the minor when you add a route, a type or a
        # requirement with a default implementation; the major when a change breaks a module
        # built against the version before (a removed or changed declaration).
        version 1.0.0

        """
    }

    var routeSource: String {
        """
        /// Provided by \(name). Other modules declare `requires \(route)` or `uses \(route)` in
        /// their module.manifest, with `import \(contracts)`, and depend on this package.
        public protocol \(route): Sendable {
            /// A greeting for `name`.
            func greeting(for name: String) -> String
        }

        """
    }
}
