import FixtureContracts
import ModuleKit

/// Test module: provides `AlarmRoute` but always throws in start.
final class FixtureThrowsOnStart: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any AlarmRoute).self, .singleton(Alarm()))
    }

    func start(_ context: ModuleContext) throws {
        throw AlarmFailure()
    }
}

struct Alarm: AlarmRoute {
    func ring() -> String { "ring" }
}

struct AlarmFailure: Error, CustomStringConvertible {
    var description: String { "alarm hardware not found" }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureThrowsOnStart.self, request) }
