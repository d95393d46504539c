import Contracts
import ModuleKit
import ModuleKitTesting
import Synchronization
import Testing

protocol BannerRoute: Sendable { func banner() -> String }

/// A module as a module developer writes one, tested without the host.
final class BannerModule: Module {
    struct Configuration: Decodable { var prefix: String }

    static let name = "Banner"
    static let version = "1.0.0"
    static let provides: [RouteKey] = [.route((any BannerRoute).self)]
    static let requires: [RouteKey] = [.route((any HostInfoRoute).self)]

    init() {}

    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
        let resolver = registry.resolver
        try registry.route((any BannerRoute).self, .lazySingleton { Banner(prefix: configuration.prefix, resolver: resolver) })
    }

    func start(_ context: ModuleContext) throws {
        context.logger.info("started in \(context.environment.rawValue)")
    }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "show", summary: "Show the banner", usage: "show") { invocation in
                guard invocation.arguments.isEmpty else { throw CommandUsageError("show takes no arguments") }
            }
        ]
    }
}

struct Banner: BannerRoute {
    let prefix: String
    let resolver: ModuleResolver
    func banner() -> String {
        let host = try? resolver.resolve((any HostInfoRoute).self)
        return "\(prefix) modhost \(host?.hostVersion ?? "?")"
    }
}

struct StaticBanner: BannerRoute {
    func banner() -> String { "static" }
}

protocol TicketRoute: AnyObject, Sendable { var number: Int { get } }

/// A module whose route is a factory: each consumer gets a ticket of its own.
final class TicketModule: Module {
    static let name = "Tickets"
    static let version = "1.0.0"
    static let provides: [RouteKey] = [.route((any TicketRoute).self)]

    final class Ticket: TicketRoute {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        let issued = Atomic(0)
        try registry.route((any TicketRoute).self, .factory { Ticket(issued.add(1, ordering: .relaxed).newValue) })
    }

    func start(_ context: ModuleContext) throws {}
}

@MainActor
@Suite struct ModuleTestHarnessTests {
    @Test func aFactoryRouteIsMadeAnewForEachConsumer() throws {
        let harness = ModuleTestHarness(TicketModule.self)
        try harness.start()
        let first = try harness.make((any TicketRoute).self)
        let second = try harness.make((any TicketRoute).self)
        #expect(first !== second)
        #expect([first.number, second.number] == [1, 2])
        let error = #expect(throws: LocatorError.self) { try harness.resolve((any TicketRoute).self) }
        #expect(error?.kind == .lifetime)
        harness.stop()
    }

    @Test func runsOneModuleWithDoublesForWhatItRequires() throws {
        let harness = ModuleTestHarness(BannerModule.self)
        try harness.provide((any HostInfoRoute).self, HostInfoDouble(hostVersion: "9.9"))
        try harness.start(configuration: #"{"prefix": "Welcome to"}"#)
        #expect(try harness.resolve((any BannerRoute).self).banner() == "Welcome to modhost 9.9")
        #expect(harness.logLines == ["modhost: info: Banner: started in test\n"])
        try harness.run("show")
        #expect(throws: CommandUsageError.self) { try harness.run("show", ["extra"]) }
        harness.stop()
    }

    @Test func refusesToStartWithoutADoubleForARequiredRoute() {
        let harness = ModuleTestHarness(BannerModule.self)
        let error = #expect(throws: HarnessError.self) { try harness.start(configuration: #"{"prefix": "x"}"#) }
        #expect(error?.message == "'Banner' requires 'HostInfoRoute'; give each a double with provide(_:_:)")
    }

    @Test func refusesADoubleForARouteTheModuleDoesNotDeclare() {
        let harness = ModuleTestHarness(BannerModule.self)
        let error = #expect(throws: HarnessError.self) { try harness.provide((any BannerRoute).self, StaticBanner()) }
        #expect(error?.message == "'Banner' neither requires nor uses 'BannerRoute'; declare it before giving it a double")
    }

    @Test func reportsABadConfigurationByKey() throws {
        let harness = ModuleTestHarness(BannerModule.self)
        try harness.provide((any HostInfoRoute).self, HostInfoDouble())
        let error = #expect(throws: ConfigurationError.self) { try harness.start(configuration: #"{"prefix": 3}"#) }
        #expect(error?.message == "config.prefix is 3; expected text (in quotes)")
        let missing = #expect(throws: ConfigurationError.self) { try harness.start(configuration: "{}") }
        #expect(missing?.message == "config.prefix is missing")
    }

    @Test func aKeyTheConfigurationNeverReadsIsRefused() throws {
        let harness = ModuleTestHarness(BannerModule.self)
        try harness.provide((any HostInfoRoute).self, HostInfoDouble())
        let typo = #expect(throws: ConfigurationError.self) { try harness.start(configuration: #"{"prefix": "Hi", "prefx": "Hi"}"#) }
        #expect(typo?.message == "config.prefx is not a setting; did you mean 'prefix'?")
        let stranger = #expect(throws: ConfigurationError.self) { try harness.start(configuration: #"{"prefix": "Hi", "colour": 1}"#) }
        #expect(stranger?.message == "config.colour is not a setting; use 'prefix'")
    }

    @Test func anUnimplementedDoubleFailsTheTestLoudly() throws {
        let harness = ModuleTestHarness(BannerModule.self)
        try harness.provide((any HostInfoRoute).self, UnimplementedHostInfo())
        try harness.start(configuration: #"{"prefix": "Hi"}"#)
        try withKnownIssue {
            _ = try harness.resolve((any BannerRoute).self).banner()
        } matching: { issue in
            issue.description.contains("unimplemented: HostInfoRoute.hostVersion was called")
        }
    }
}
