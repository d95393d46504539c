import FixtureContracts
import ModuleKit

/// Test module: requires `UnprovidedRoute`, which no module provides.
final class FixtureNeedsNobody: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureNeedsNobody.self, request) }
