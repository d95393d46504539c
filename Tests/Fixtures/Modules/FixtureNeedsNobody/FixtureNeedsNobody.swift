import FixtureContracts
import ModuleKit

/// Test module: requires `UnprovidedRoute`, which no module provides.
final class FixtureNeedsNobody: Module {
    static let name = "FixtureNeedsNobody"
    static let version = "1.0.0"
    static let requires: [RouteKey] = [.route((any UnprovidedRoute).self)]

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureNeedsNobody.self, request) }
