import FixtureContracts
import ModuleKit

/// Test module: uses `GreetingRoute`, `AlarmRoute` and `UnprovidedRoute` when available, and
/// starts either way; reports what it found through `OptionalReportRoute`.
final class FixtureOptional: Module {
    // Name, version and routes: module.manifest (the build generates them).
    private let report = Findings()

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any OptionalReportRoute).self, .singleton(report))
    }

    func start(_ context: ModuleContext) throws {
        report.note("GreetingRoute", finding(context) { resolver throws(LocatorError) in try resolver.resolve((any GreetingRoute).self) })
        report.note("AlarmRoute", finding(context) { resolver throws(LocatorError) in try resolver.resolve((any AlarmRoute).self) })
        report.note(
            "UnprovidedRoute", finding(context) { resolver throws(LocatorError) in try resolver.resolve((any UnprovidedRoute).self) })
        // Not declared: must be refused with an error, not nil and not a crash.
        report.note("CycleARoute", finding(context) { resolver throws(LocatorError) in try resolver.resolve((any CycleARoute).self) })
    }

    private func finding(_ context: ModuleContext, _ resolve: (ModuleResolver) throws(LocatorError) -> Any) -> String {
        do {
            _ = try resolve(context.resolver)
            return "available"
        } catch {
            return error.message
        }
    }
}

final class Findings: OptionalReportRoute, @unchecked Sendable {
    // Written in start, before the locator is sealed; read-only afterwards.
    private(set) var findings: [String: String] = [:]
    func note(_ route: String, _ finding: String) { findings[route] = finding }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureOptional.self, request) }
