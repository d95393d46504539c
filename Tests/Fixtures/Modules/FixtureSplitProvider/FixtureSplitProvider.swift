import FixtureSplitContracts
import ModuleKit

/// Test module: provides `SplitRoute`, whose protocol is linked statically into this library
/// (and into FixtureSplitConsumer's): the host must refuse the pair and say why.
final class FixtureSplitProvider: Module {
    // Name, version and routes: module.manifest (the build generates them).
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        try registry.route((any SplitRoute).self, .singleton(Answer()))
    }
}

final class Answer: SplitRoute {
    func answer() -> String { "42" }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureSplitProvider.self, request) }
