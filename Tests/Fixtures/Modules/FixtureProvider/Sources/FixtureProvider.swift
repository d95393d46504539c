import FixtureContracts
import ModuleKit

/// Test module: provides `GreetingRoute`; its config can make it fail in register or start.
///
/// Laid out as a feature module is: the code in a library target (`FixtureProviderFeature`)
/// that unit tests link, and the entry point alone in the target that becomes the `.so`, so
/// that tests never link a second `modhost_module_entry` symbol.
public final class FixtureProvider: Module {
    public struct Configuration: Decodable {
        public var greeting: String?
        /// "register" or "start": throw there, to test how the host survives it.
        public var failIn: String?
    }

    private var configuration = Configuration()

    private var logger: Logger?

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
        self.configuration = configuration
        try registry.route((any GreetingRoute).self, .singleton(Greeter(greeting: configuration.greeting ?? "Hello")))
        if configuration.failIn == "register" {
            throw FixtureFailure(message: "register failed on purpose")
        }
    }

    public func start(_ context: ModuleContext) throws {
        if configuration.failIn == "start" {
            throw FixtureFailure(message: "start failed on purpose")
        }
        logger = context.logger
        context.logger.info("started")
    }

    public func stop() {
        logger?.info("stopped")
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        let greeter = Greeter(greeting: configuration.greeting ?? "Hello")
        return [
            ModuleCommand(name: "greet", summary: "Print a greeting", usage: "greet NAME") { invocation in
                guard invocation.arguments.count == 1, let name = invocation.arguments.first else {
                    throw CommandUsageError("greet takes exactly one NAME")
                }
                print(greeter.greet(name))
            }
        ]
    }
}

extension FixtureProvider {
    /// A Home entry that shows the greeting and goes back.
    @MainActor public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        let greeter = Greeter(greeting: configuration.greeting ?? "Hello")
        return [HomeEntry(title: "Greeting") { GreetingScreen(greeter: greeter) }]
    }
}

final class GreetingScreen: Screen {
    let greeter: Greeter
    init(greeter: Greeter) { self.greeter = greeter }
    func show(_ ui: TerminalUI) -> Navigation {
        ui.print(greeter.greet("you"))
        return .pop
    }
}

struct Greeter: GreetingRoute {
    let greeting: String
    func greet(_ name: String) -> String { "\(greeting), \(name)!" }
}

struct FixtureFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
