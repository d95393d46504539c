import FixtureSplitContracts
import ModuleKit

/// Test module: requires `SplitRoute` through its own static copy of the protocol, so the
/// provider's registration is under another type: the host must refuse it before it starts.
final class FixtureSplitConsumer: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    func start(_ context: ModuleContext) throws {
        let route: any SplitRoute = try context.resolver.inject()
        context.logger.info("answer \(route.answer())")
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureSplitConsumer.self, request) }
