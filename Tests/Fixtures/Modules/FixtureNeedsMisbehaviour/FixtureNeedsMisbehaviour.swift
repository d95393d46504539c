import FixtureContracts
import ModuleKit

/// Test module: requires `MisbehaviourRoute`, so it is skipped, with the chain, whenever
/// FixtureMisbehaves is skipped for a crash.
final class FixtureNeedsMisbehaviour: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureNeedsMisbehaviour.self, request) }
