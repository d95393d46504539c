import FixtureContracts
import ModuleKit

/// Test module that is fine alone and crashes the host in start when `GreetingRoute` is
/// provided (by FixtureProvider): a pair of modules that fails only together, for bisect.
final class FixtureJealous: Module {
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    func start(_ context: ModuleContext) throws {
        if try context.resolver.optional((any GreetingRoute).self) != nil {
            fatalError("FixtureJealous: GreetingRoute is here")
        }
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureJealous.self, request) }
