import Foundation
import HostModel

/// The files of a new module package, as `modhost new` writes them: a package that builds
/// `lib<Name>.so` against the kit sources this `modhost` was built from, with a command, a
/// Home entry, strings in six locales, a unit test on the harness, an integration test in the
/// real host (ModuleHostTesting), a README and `.gitignore`.
struct ModuleTemplate {
    /// The module's name: a Swift identifier starting with an upper-case letter.
    let name: String
    /// The kit package's folder (absolute).
    let kitFolder: String
    /// The SDK version of that kit.
    let sdkVersion: String
    /// Whether the module provides a new route, declared in a contracts package of its own.
    var withRoute = false
    /// The `modhost` that writes the package: what its integration test runs by default.
    var hostExecutable = ""

    private var contracts: String { "\(name)Contracts" }
    private var route: String { "\(name)Route" }

    /// Each file's path inside the package, and its text.
    var files: [(path: String, text: String)] {
        [
            ("Package.swift", packageManifest),
            (".gitignore", ".build/\n.swiftpm/\n*.o\n"),
            ("README.md", readme),
            ("Sources/\(name)/module.manifest", moduleManifest),
            ("Sources/\(name)/\(name)Module.swift", moduleSource),
            ("Tests/\(name)Tests/\(name)Tests.swift", testSource),
            ("Tests/\(name)IntegrationTests/\(name)IntegrationTests.swift", integrationTestSource),
        ]
            + Self.locales.map { locale in
                ("Sources/\(name)/Resources/Strings/\(locale.code).lproj/Localizable.strings", strings(locale))
            }
            + (withRoute
                ? [
                    ("\(contracts)/Package.swift", contractsManifest), ("\(contracts)/Sources/\(contracts)/\(route).swift", routeSource),
                    ("\(contracts)/Sources/\(contracts)/contracts.manifest", contractsVersion),
                    ("Sources/\(routeUser)/module.manifest", routeUserManifest),
                    ("Sources/\(routeUser)/\(routeUser).swift", routeUserSource),
                ]
                : [])
    }

    // MARK: - The route's fragments (empty without --route)

    private var contractsVariable: String { "routeContracts" }

    private var routeDependencyDeclaration: String {
        guard withRoute else { return "" }
        return """

            /// \(route) lives in a package of its own with a dynamic product, so that the provider
            /// and every module that uses it share one copy of the protocol in the process.
            let \(contractsVariable): Target.Dependency = .product(name: "\(contracts)", package: "\(contracts)")
            """
    }

    private var registerBody: String {
        guard withRoute else { return "" }
        return "\n        // What other modules reach through \(route).\n"
            + "        try registry.route((any \(route)).self, .singleton(\(name)Greeter()))\n    "
    }

    private var routePackageDependency: String { withRoute ? "\n        .package(path: \"\(contracts)\")," : "" }

    private var routeTargetDependency: String { withRoute ? ", \(contractsVariable)" : "" }

    /// A second module, in this package, that uses the route: the integration test proves that
    /// another module reaches it through the host.
    private var routeUser: String { "\(name)Caller" }

    private var routeUserProduct: String {
        guard withRoute else { return "" }
        return """

                    // A second module that uses \(route), for the integration test (ship it or not).
                    .library(name: "\(routeUser)", type: .dynamic, targets: ["\(routeUser)"]),
            """
    }

    private var routeUserTarget: String {
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

    private var routeUserManifest: String {
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

    private var routeUserSource: String {
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

    private var contractsManifest: String {
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

    private var contractsVersion: String {
        """
        # The version of \(contracts). Bump the minor when you add a route, a type or a
        # requirement with a default implementation; the major when a change breaks a module
        # built against the version before (a removed or changed declaration).
        version 1.0.0

        """
    }

    private var routeSource: String {
        """
        /// Provided by \(name). Other modules declare `requires \(route)` or `uses \(route)` in
        /// their module.manifest, with `import \(contracts)`, and depend on this package.
        public protocol \(route): Sendable {
            /// A greeting for `name`.
            func greeting(for name: String) -> String
        }

        """
    }

    private var lowercased: String { ModuleName(name).commandWord }

    private var packageManifest: String {
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

    private var moduleManifest: String {
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

    private var moduleSource: String {
        """
        import ModuleKit\(withRoute ? "\nimport \(contracts)" : "")

        /// \(name): a ModuleHost module with one command and one Home entry.
        final class \(name)Module: Module {
            // Name, version, routes and resource folders: generated from module.manifest.

            init() {}  // no work here: the host may create a module only to check it

            func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {\(registerBody)}

            func commands(_ context: ModuleContext) -> [ModuleCommand] {
                [
                    ModuleCommand(
                        name: "hello", summary: context.strings[.helloSummary], arguments: "[NAME]",
                        example: "modhost \(lowercased) hello Ada"
                    ) { invocation in
                        let who = invocation.arguments.first ?? context.strings[.world]
                        context.ui.print(context.strings.format(.greeting, who))
                    }
                ]
            }

            @MainActor func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
                let strings = context.strings
                return [HomeEntry(title: strings[.homeTitle]) { \(name)Screen(strings: strings) }]
            }
        }

        /// What Home opens: a title and a line, then back to Home.
        @MainActor
        final class \(name)Screen: Screen {
            private let strings: ModuleStrings

            init(strings: ModuleStrings) { self.strings = strings }

            func show(_ ui: TerminalUI) -> Navigation {
                ui.title(strings[.homeTitle])
                ui.print(strings[.welcome])
                return .pop
            }
        }

        extension StringKey {
            static let homeTitle: StringKey = "home.title"
            static let welcome: StringKey = "welcome"
            static let greeting: StringKey = "greeting"
            static let world: StringKey = "world"
            static let helloSummary: StringKey = "command.hello"
        }

        \(withRoute ? """
            /// \(name)'s implementation of its route.
            final class \(name)Greeter: \(route) {
                func greeting(for name: String) -> String { "Hello from \(name), \\(name)!" }
            }


            """ : "")@_cdecl("modhost_module_entry")
        public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(\(name)Module.self, request) }

        """
    }

    private var testSource: String {
        """
        import ModuleKit
        import ModuleKitTesting
        import Testing\(withRoute ? "\nimport \(contracts)" : "")

        @testable import \(name)

        /// \(name) on the test harness: no host, a private locator, a scripted terminal.
        @MainActor
        @Suite struct \(name)Tests {
            @Test func helloGreetsByName() throws {
                let harness = ModuleTestHarness(\(name)Module.self)
                try harness.start()
                defer { harness.stop() }
                try harness.run("hello", ["Ada"])
                #expect(harness.terminal.output == "Hello, Ada!\\n")
            }

            @Test func homeEntryOpensTheWelcome() throws {
                let harness = ModuleTestHarness(\(name)Module.self)
                try harness.start()
                defer { harness.stop() }
                let entries = try harness.homeEntries()
                #expect(entries.map(\\.title) == ["\(name)"])
                let entry = try #require(entries.first)
                harness.run(entry.open())
                #expect(harness.terminal.output.contains("Welcome to \(name)."))
            }\(withRoute ? """


                    @Test func itProvides\(route)() throws {
                        let harness = ModuleTestHarness(\(name)Module.self)
                        try harness.start()
                        defer { harness.stop() }
                        #expect(try harness.resolve((any \(route)).self).greeting(for: "Ada") == "Hello from \(name), Ada!")
                    }
                """ : "")
        }

        """
    }

    private var integrationTestSource: String {
        let word = lowercased
        return """
            import Foundation
            import ModuleHostTesting
            import Testing

            /// \(name) inside the real host, with the modules it ships with: its command, its Home
            /// entry on a real terminal\(withRoute ? ", and \(route) from a second module" : ""). Run `swift build` first: it
            /// makes .build/debug/lib\(name).so, which these tests load.
            @Suite struct \(name)IntegrationTests {
                /// The modhost that wrote this package; MODHOST_EXECUTABLE names another.
                static let modhost = ProcessInfo.processInfo.environment["MODHOST_EXECUTABLE"] ?? \(Self.swiftLiteral(hostExecutable))

                /// A world of its own: the shipped modules, \(name), a fresh data folder.
                func world() throws -> TestHost {
                    try TestHost(
                        modules: ["Auth", "Geo", "Photos", "Settings"].map { TestHost.Module.shipped($0) } + [
                            .library(TestHost.builtLibrary("\(name)"))\(withRoute ? ", .library(TestHost.builtLibrary(\"\(routeUser)\"))" : ""),
                        ],
                        executable: Self.modhost)
                }

                @Test func itLoadsBesideTheShippedModulesAndItsCommandRuns() throws {
                    let host = try world()
                    #expect(try host.module("\(name)")?.state == "active")
                    let hello = try host.run("\(word)", "hello", "Ada")
                    #expect(hello.succeeded, "\\(hello)")
                    #expect(hello.stdout == "Hello, Ada!\\n")
                }

                @Test func itsHomeEntryOpensOnARealTerminal() throws {
                    let host = try world()
                    // Home comes after logging in while Auth is active: register through Auth's command.
                    let registered = try host.run(
                        arguments: ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
                        input: "secret12!\\nsecret12!\\n")
                    #expect(registered.succeeded, "\\(registered)")
                    let app = try host.app(rows: 30, columns: 100)
                    try app.choose("\(name)")
                    try app.waitFor("Welcome to \(name).")
                    app.press(.control("c"))
                    #expect(try app.waitForExit().signal == nil)
                }\(withRoute ? """


                        @Test func aSecondModuleUses\(route)ThroughTheHost() throws {
                            let host = try world()
                            let greeted = try host.run("\(ModuleName(routeUser).commandWord)", "greet", "Ada")
                            #expect(greeted.stdout == "Hello from \(name), Ada!\\n", "\\(greeted)")
                        }
                    """ : "")
            }

            """
    }

    private var readme: String {
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

    struct Locale {
        let code: String
        let welcome: String
        let greeting: String
        let world: String
        let hello: String
    }

    static let locales = [
        Locale(code: "en", welcome: "Welcome to %@.", greeting: "Hello, %@!", world: "world", hello: "Say hello"),
        Locale(code: "es", welcome: "Bienvenido a %@.", greeting: "¡Hola, %@!", world: "mundo", hello: "Saluda"),
        Locale(code: "fr", welcome: "Bienvenue dans %@.", greeting: "Bonjour, %@ !", world: "le monde", hello: "Dire bonjour"),
        Locale(code: "de", welcome: "Willkommen bei %@.", greeting: "Hallo, %@!", world: "Welt", hello: "Hallo sagen"),
        Locale(code: "it", welcome: "Benvenuto in %@.", greeting: "Ciao, %@!", world: "mondo", hello: "Saluta"),
        Locale(code: "el", welcome: "Καλώς ήρθατε στο %@.", greeting: "Γεια σου, %@!", world: "κόσμε", hello: "Πείτε γεια"),
    ]

    private func strings(_ locale: Locale) -> String {
        let welcome = locale.welcome.replacingOccurrences(of: "%@", with: name)
        return """
            /* \(name): \(locale.code) */
            "home.title" = "\(name)";
            "welcome" = "\(welcome)";
            "greeting" = "\(locale.greeting)";
            "world" = "\(locale.world)";
            "command.hello" = "\(locale.hello)";
            "module.title" = "\(name)";

            """
    }

    /// `text` as a Swift string literal.
    static func swiftLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }
}
