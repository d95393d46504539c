import FixtureContracts
import ModuleKit

/// Test module: requires `GreetingRoute`, calls it from its own library at start, and
/// reports what it saw through `ConsumerReportRoute`.
final class FixtureConsumer: Module {
    // Name, version and routes: module.manifest (the build generates them).
    private let report = Report()

    private var logger: Logger?

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any ConsumerReportRoute).self, .singleton(report))
    }

    func start(_ context: ModuleContext) throws {
        let greeter: any GreetingRoute = try context.resolver.inject()
        report.record(greeting: greeter.greet("consumer"), locator: ServiceLocator.shared)
        logger = context.logger
        context.logger.info("started")
    }

    func stop() {
        logger?.info("stopped")
    }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        let report = self.report
        return [
            ModuleCommand(name: "report", summary: "Print what the consumer saw at start", usage: "report") { _ in
                print(report.greetingSeenAtStart)
            }
        ]
    }
}

final class Report: ConsumerReportRoute, @unchecked Sendable {
    // Written once in start, before the locator is sealed; read-only afterwards.
    private(set) var greetingSeenAtStart = ""
    private(set) var sharedLocatorAddress: UInt = 0

    func record(greeting: String, locator: ServiceLocator) {
        greetingSeenAtStart = greeting
        sharedLocatorAddress = UInt(bitPattern: ObjectIdentifier(locator))
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureConsumer.self, request) }
