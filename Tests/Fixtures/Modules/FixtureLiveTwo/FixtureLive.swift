import Glibc
import ModuleKit

/// Build two of module FixtureLive (see module.manifest): its Home entry says which build
/// answers, from which process, and whether it reads what it declares and build one does not.
final class FixtureLive: Module {
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    @MainActor func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        [HomeEntry(title: "Build two") { Answer() }]
    }
}

@MainActor final class Answer: Screen {
    func show(_ ui: TerminalUI) -> Navigation {
        let file = open("/etc/passwd", O_RDONLY | O_CLOEXEC)
        if file >= 0 { close(file) }
        ui.print("Build two answers from process \(getpid()); /etc/passwd \(file >= 0 ? "is read" : "is refused")")
        return .pop
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureLive.self, request) }
