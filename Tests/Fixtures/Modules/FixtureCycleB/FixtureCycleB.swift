import FixtureContracts
import ModuleKit

/// Test module: provides `CycleBRoute` and requires `CycleARoute`, closing a cycle.
final class FixtureCycleB: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any CycleBRoute).self, .singleton(CycleB()))
    }
}

struct CycleB: CycleBRoute {}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureCycleB.self, request) }
