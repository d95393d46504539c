import FixtureContracts
import ModuleKit

/// Test module: provides `CycleARoute` and requires `CycleBRoute`, closing a cycle.
final class FixtureCycleA: Module {
    static let name = "FixtureCycleA"
    static let version = "1.0.0"
    static let provides: [RouteKey] = [.route((any CycleARoute).self)]
    static let requires: [RouteKey] = [.route((any CycleBRoute).self)]

    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any CycleARoute).self, .singleton(CycleA()))
    }
}

struct CycleA: CycleARoute {}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureCycleA.self, request) }
