import Foundation
@_spi(Host) import ModuleKit

/// Runs one module without the host: a private locator, test doubles for the routes it
/// requires or uses, and the same register → start → seal → stop sequence the host follows.
///
/// ```swift
/// let harness = ModuleTestHarness(GeoModule.self)
/// try harness.provide((any AuthRoute).self, AuthDouble(currentUser: nil))
/// try harness.start(configuration: #"{"defaultCountry": "FR"}"#)
/// let geo = try harness.resolve((any GeoRoute).self)
/// ```
public final class ModuleTestHarness<M: Module> {
    /// The module under test.
    public let module: M
    /// The environment the module sees.
    public let environment: HostEnvironment
    /// Every line the module logged, in order.
    public var logLines: [String] { log.lines }

    /// The module's data folder: a new temporary folder per harness.
    public let dataFolder: String
    /// The terminal the module's screens and commands use: scripted input, captured output.
    public let terminal: ScriptedTerminal
    /// The app's locale; `set(_:)` switches the module's strings.
    public let locale = LocaleSetting(environment: [:])

    private let locator: ServiceLocator
    /// The harness stands in for the host: it holds its locator's one host access.
    private let access: HostAccess
    private let log = LogCapture()
    private var doubles: Set<RouteKey> = []
    private var context: ModuleContext?
    private let navigator: Navigator

    /// Creates the module with `init()`, as the host would.
    ///
    /// - Parameters:
    ///   - input: Lines the module's screens and prompts read, in order.
    public init(_ type: M.Type = M.self, environment: HostEnvironment = .test, input: [String] = []) {
        module = M()
        (locator, access) = ServiceLocator.withHostAccess()
        self.environment = environment
        dataFolder = NSTemporaryDirectory() + "modhost-harness-" + UUID().uuidString
        terminal = ScriptedTerminal(lines: input)
        navigator = Navigator(ui: TerminalUI(terminal: terminal, labels: { $0.rawValue }))
    }

    /// The context the module gets; available once ``start(configuration:)`` has run.
    public var moduleContext: ModuleContext? { context }

    private func makeContext(name: String, resolver: ModuleResolver, strings: ModuleStrings) -> ModuleContext {
        ModuleContext(
            moduleName: name, environment: environment, logger: logger(name), resolver: resolver,
            storage: ModuleStorage(dataFolder: dataFolder, module: name), strings: strings, locale: locale, navigator: navigator,
            libraryFolder: Self.buildFolder)
    }

    /// Where SwiftPM left the test executable and the modules' resources.
    static var buildFolder: String { ProcessLocation.executableFolder }

    /// The module's strings, from its resources beside the test executable (where SwiftPM
    /// puts them), or none when the module declares none.
    public func loadStrings() throws -> ModuleStrings {
        guard let folder = M.stringsFolder else { return .none(locale: locale) }
        return try ModuleStrings.load(module: M.name, from: Self.buildFolder + "/" + folder, locale: locale)
    }

    /// Registers `double` for a route the module requires or uses.
    ///
    /// - Throws: ``HarnessError`` when the module does not declare the route.
    public func provide<Route: Sendable>(_ route: Route.Type, _ double: Route) throws {
        let key = RouteKey.route(route)
        guard Set(M.requires).union(M.uses).contains(key) else {
            throw HarnessError("'\(M.name)' neither requires nor uses '\(key)'; declare it before giving it a double")
        }
        let owner = ModuleManifest(name: "double of \(key)", version: "test", provides: [key])
        let resolver = locator.resolver(for: owner, access: access)
        let registry = ModuleRegistry(
            context: makeContext(name: owner.name, resolver: resolver, strings: .none(locale: locale)), locator: locator)
        try registry.route(route, .singleton(double))
        doubles.insert(key)
    }

    /// Decodes `configuration` (a JSON object, or nil for none), registers and starts the
    /// module, then seals the locator as the host does.
    ///
    /// - Throws: ``HarnessError`` when a required route has no double; otherwise whatever
    ///   decoding, `register` or `start` throws.
    public func start(configuration: String? = nil) throws {
        let missing = M.requires.filter { !doubles.contains($0) }
        guard missing.isEmpty else {
            throw HarnessError(
                "'\(M.name)' requires \(missing.map { "'\($0)'" }.joined(separator: ", ")); give each a double with provide(_:_:)")
        }
        let context = makeContext(name: M.name, resolver: locator.resolver(for: M.manifest, access: access), strings: try loadStrings())
        self.context = context
        let instance = ModuleInstance(module)
        try instance.register(
            ModuleRegistry(context: context, locator: locator), configuration: configuration.map { Array($0.utf8) })
        try module.start(context)
        locator.seal()
    }

    /// Resolves a route the module provides as a shared value, as another module would.
    ///
    /// - Throws: ``LocatorError`` when the route is not registered or is a factory.
    public func resolve<Route: Sendable>(_ route: Route.Type) throws(LocatorError) -> Route {
        try locator.hostResolver(name: "test", access: access).resolve(route)
    }

    /// Makes a new value of a route the module provides as a factory, as another module would.
    ///
    /// - Throws: ``LocatorError`` when the route is not registered or is a shared value.
    public func make<Route: Sendable>(_ route: Route.Type) throws(LocatorError) -> Route {
        try locator.hostResolver(name: "test", access: access).make(route)
    }

    /// The commands the module contributes.
    public func commands() throws -> [ModuleCommand] {
        guard let context else { throw HarnessError("start the module before asking for its commands") }
        return module.commands(context)
    }

    /// Runs the module's command `name` with `arguments`, as the host would.
    ///
    /// - Throws: ``HarnessError`` for an unknown command, or what the command throws (a
    ///   ``ModuleError`` carries the message and exit code the host would print).
    @MainActor
    public func run(_ name: String, _ arguments: [String] = []) throws {
        guard let command = try commands().first(where: { $0.name == name }) else {
            throw HarnessError("'\(M.name)' has no command '\(name)'")
        }
        try command.run(CommandInvocation(arguments: arguments))
    }

    /// The Home entries the module contributes.
    @MainActor
    public func homeEntries() throws -> [HomeEntry] {
        guard let context else { throw HarnessError("start the module before asking for its Home entries") }
        return module.homeEntries(context)
    }

    /// Runs the app's navigator from `screen` until it quits or input ends.
    @MainActor
    public func run(_ screen: any Screen) {
        navigator.run(root: screen)
    }

    /// Stops the module.
    public func stop() {
        module.stop()
    }

    private func logger(_ label: String) -> Logger {
        let log = self.log
        return Logger(label: label, minimumLevel: .trace) { line in log.append(line) }
    }
}

/// A misuse of the harness, with what to do instead.
public struct HarnessError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
