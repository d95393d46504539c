import FixtureContracts
import ModuleKit

/// Test module: provides `CycleBRoute` and requires `CycleARoute`, closing a cycle.
final class FixtureCycleB: Module {
    static let name = "FixtureCycleB"
    static let version = "1.0.0"
    static let provides: [RouteKey] = [.route((any CycleBRoute).self)]
    static let requires: [RouteKey] = [.route((any CycleARoute).self)]

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any CycleBRoute).self, .singleton(CycleB()))
    }
}

struct CycleB: CycleBRoute {}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureCycleB.self, request) }
