import FixtureContracts
import Foundation
import ModuleKit
import Synchronization

/// Test module that misbehaves where its `config` says: `{"in": "register" | "start" |
/// "command" | "screen" | "stop", "how": "fatalError" | "block" | "exit"}`; "screen" is its
/// Home entry's screen. With no config it behaves.
final class FixtureMisbehaves: Module, Sendable {
    // Name, version and routes: module.manifest (the build generates them).
    struct Configuration: Decodable, Sendable {
        var `in`: String?
        var how: String?
    }

    private let plan = Mutex<Configuration>(Configuration())

    init() {}

    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
        plan.withLock { $0 = configuration }
        try registry.route((any MisbehaviourRoute).self, .singleton(Misbehaviour()))
        misbehave(in: "register")
    }

    func start(_ context: ModuleContext) throws { misbehave(in: "start") }

    func stop() { misbehave(in: "stop") }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "run", summary: "Misbehave as configured, or print 'fine'", usage: "run") { _ in
                self.misbehave(in: "command")
                print("fine")
            }
        ]
    }

    @MainActor func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        [HomeEntry(title: "Misbehave") { MisbehavingScreen(module: self) }]
    }

    func misbehave(in phase: String) {
        let configuration = plan.withLock { $0 }
        guard configuration.in == phase else { return }
        switch configuration.how {
        case "fatalError": fatalError("FixtureMisbehaves: told to crash in \(phase)")
        case "block": while true { sleep(60) }
        case "exit": exit(0)
        default: return
        }
    }
}

struct Misbehaviour: MisbehaviourRoute {}

/// Misbehaves when shown, if told to; otherwise goes back.
final class MisbehavingScreen: Screen {
    let module: FixtureMisbehaves

    init(module: FixtureMisbehaves) {
        self.module = module
    }

    func show(_ ui: TerminalUI) -> Navigation {
        module.misbehave(in: "screen")
        return .pop
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureMisbehaves.self, request) }
