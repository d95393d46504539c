import FixtureContracts
import Foundation
@_spi(Host) import ModuleKit
import Synchronization

/// Test module that misbehaves where its `config` says: `{"in": "load" | "register" |
/// "checkResources" | "start" | "command" | "screen" | "stop", "how": …}`; "screen" is its Home
/// entry's screen, "load" its entry point, "checkResources" its check for `modhost check`. How:
/// - "fatalError", "block" (forever), "exit" (exit(0)), "raise" (raise(SIGSEGV));
/// - "flood": prints 100 MB to standard output;
/// - "closeStandardFiles": closes descriptors 0, 1 and 2;
/// - "fail": throws an error carrying `secret` (registered with Redaction when `register`
///   is true), prints it with `context.ui.print` in a screen, or reports two problems, the
///   second carrying it, from checkResources;
/// - "crashOnThread": a thread of its own waits until the file `trigger` exists, then crashes;
/// - "claimHostAccess": tries to take the host's right to make resolvers, and says what it got.
/// `announce`, a path, is created just before it misbehaves (a test knows then that it has).
/// With no config it behaves.
final class FixtureMisbehaves: Module, Sendable {
    // Name, version and routes: module.manifest (the build generates them).
    struct Configuration: Decodable, Sendable {
        var `in`: String?
        var how: String?
        var secret: String?
        var register: Bool?
        var trigger: String?
        var announce: String?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let plan = Mutex<Configuration>(Configuration())

    init() {}

    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
        plan.withLock { $0 = configuration }
        if configuration.register == true, let secret = configuration.secret { Redaction.register(secret: secret) }
        try registry.route((any MisbehaviourRoute).self, .singleton(Misbehaviour()))
        try misbehave(in: "register")
    }

    func start(_ context: ModuleContext) throws {
        let configuration = plan.withLock { $0 }
        if configuration.how == "crashOnThread", let trigger = configuration.trigger {
            Thread.detachNewThread {
                while access(trigger, F_OK) != 0 { usleep(10_000) }
                fatalError("FixtureMisbehaves: told to crash on a thread of its own")
            }
        }
        try misbehave(in: "start")
    }

    func stop() { try? misbehave(in: "stop") }

    func checkResources() -> [String] {
        let configuration = plan.withLock { $0 }
        if configuration.in == "checkResources", configuration.how == "fail" {
            return ["config.trigger is not there", "config.secret is \(configuration.secret ?? "")"]
        }
        try? misbehave(in: "checkResources")
        return []
    }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "run", summary: "Misbehave as configured, or print 'fine'", usage: "run") { _ in
                try self.misbehave(in: "command")
                print("fine")
            }
        ]
    }

    @MainActor func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        [HomeEntry(title: "Misbehave") { MisbehavingScreen(module: self) }]
    }

    func misbehave(in phase: String) throws {
        let configuration = plan.withLock { $0 }
        guard configuration.in == phase else { return }
        if let announce = configuration.announce { _ = FileManager.default.createFile(atPath: announce, contents: nil) }
        switch configuration.how {
        case "fatalError": fatalError("FixtureMisbehaves: told to crash in \(phase)")
        case "block": while true { sleep(60) }
        case "exit": exit(0)
        case "raise": raise(SIGSEGV)
        case "forkThenRaise":
            // A child that outlives the host a few seconds, as a daemon would, with a copy of
            // every descriptor the host holds that is not closed at exec but its pipes (so
            // that whoever reads the host's output sees it end with the host).
            if fork() == 0 {
                for descriptor: Int32 in 0..<1024 {
                    var status = stat()
                    if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK) {
                        close(descriptor)
                    }
                }
                sleep(5)
                _exit(0)
            }
            raise(SIGSEGV)
        case "flood":
            let line = String(repeating: "x", count: 99)
            for _ in 0..<1_000_000 { print(line) }
        case "closeStandardFiles": for descriptor: Int32 in 0...2 { close(descriptor) }
        case "fail": throw Failure(description: "told to fail with \(configuration.secret ?? "")")
        case "claimHostAccess": print(ServiceLocator.shared.claimHostAccess() == nil ? "no host access" : "host access taken")
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
        do {
            try module.misbehave(in: "screen")
        } catch {
            ui.print("\(error)")
        }
        return .pop
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? {
    // The entry point is the "load" phase: told by the environment, as no config is read yet.
    if let how = getenv("FIXTURE_MISBEHAVES_IN_LOAD").map({ String(cString: $0) }), how == "closeStandardFiles" {
        for descriptor: Int32 in 0...2 { close(descriptor) }
    }
    return ModuleExport.entry(FixtureMisbehaves.self, request)
}
