import HostModel

/// The module's source, its unit test on the harness and its integration test in the host.
extension ModuleTemplate {
    var moduleSource: String {
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

    var testSource: String {
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

    var integrationTestSource: String {
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
}
