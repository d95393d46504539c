import FixtureContracts
import ModuleKit

/// Test module: provides `CycleARoute` and requires `CycleBRoute`, closing a cycle.
final class FixtureCycleA: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any CycleARoute).self, .singleton(CycleA()))
    }
}

struct CycleA: CycleARoute {}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureCycleA.self, request) }
