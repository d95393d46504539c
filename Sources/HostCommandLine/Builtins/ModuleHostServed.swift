import Glibc
import HostApp
import HostIsolation
import HostLifecycle
import HostModel
@_spi(Host) import ModuleKit
import Synchronization

/// What a module's own process serves the host (see ``Builtins/ModuleHost``): the module's
/// start and stop, and each route it provides, made from this process's runtime once it is
/// there. A call of a route the module does not provide is refused, never served.
enum ModuleHostServed {
    private static let served = Mutex<(runtime: HostRuntime, module: String)?>(nil)
    /// The session the module's commands run in (one, for the process's life).
    nonisolated(unsafe) private static var session: HostSession?

    /// The routes the link serves: every route that can cross, and the control route.
    static let routes: [String: @Sendable () throws -> any RouteDispatching] = {
        var routes: [String: @Sendable () throws -> any RouteDispatching] = [:]
        for (name, bridge) in RouteBridge.all {
            routes[name] = {
                guard let (runtime, module) = served.withLock({ $0 }) else { throw NotServed(why: "the module is not there yet") }
                guard runtime.modules.contains(where: { $0.name == module && $0.provides.contains(name) }) else {
                    throw NotServed(why: "module '\(module)' does not provide '\(name)'")
                }
                return try bridge.dispatcher(runtime.resolver)
            }
        }
        routes[IsolatedModule.control] = {
            guard let (runtime, module) = served.withLock({ $0 }) else { throw NotServed(why: "the module is not there yet") }
            return Control(runtime: runtime, module: module)
        }
        return routes
    }()

    /// From now on the routes are `module`'s in `runtime`.
    static func serve(_ session: HostSession, module: String) {
        // Set once, before the link serves its first call (on this thread).
        Self.session = session
        served.withLock { $0 = (session.runtime, module) }
    }

    struct NotServed: Error, CustomStringConvertible {
        let why: String
        var description: String { why }
    }

    /// Starts and stops the module in this process, for the host.
    struct Control: RouteDispatching {
        let runtime: HostRuntime
        let module: String

        func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
            switch member {
            case "start":
                runtime.start()
                guard let report = runtime.modules.first(where: { ModuleName($0.name) == ModuleName(module) }) else {
                    throw NotServed(why: "no module '\(module)'")
                }
                if report.state != .active { throw NotServed(why: report.reason ?? report.state.rawValue) }
                return .void
            case "stop":
                runtime.stop()
                return .void
            default:
                return nil
            }
        }

        /// Commands and screens run on the main actor, as they do in the host's process.
        @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
            switch member {
            case "command":
                let words = try call.value(0, as: [String].self)
                guard let session = ModuleHostServed.session else { throw NotServed(why: "the module is not there yet") }
                return try call.answer(
                    try Self.onTheHostsTerminal(call.descriptors) {
                        words == [HostSession.helpWord]
                            ? session.moduleHelp(module)
                            : session.runModuleCommand(module: module, command: words.first, arguments: Array(words.dropFirst()))
                    })
            case "homeEntries":
                return try call.answer(runtime.homeEntries.map(\.entry.title))
            case "screen":
                let (index, fullScreen) = (try call.value(0, as: Int.self), try call.value(1, as: Bool.self))
                let entries = runtime.homeEntries
                guard entries.indices.contains(index) else { throw NotServed(why: "module '\(module)' has no Home entry \(index + 1)") }
                let navigator = runtime.navigator
                let quit = try Self.onTheHostsTerminal(call.descriptors) {
                    let entered = fullScreen && FullScreenMode.enter(navigator.ui, strings: runtime.strings)
                    let watched = QuitWatch(entries[index].entry.open())
                    navigator.run(root: watched)
                    if entered { FullScreenMode.leave(navigator.ui) }
                    return watched.quit.value
                }
                // Whether the person quit the app there, not only left the module's screens.
                return try call.answer(quit)
            default:
                return nil
            }
        }

        /// Runs `body` with `descriptors` (the host's) as this process's standard input, output
        /// and error, put back after.
        @MainActor static func onTheHostsTerminal<Result>(_ descriptors: [Int32], _ body: () -> Result) throws -> Result {
            guard descriptors.count == 3 else {
                throw NotServed(why: "a command or a screen needs the host's standard input, output and error")
            }
            let saved = (0..<3).map { dup(Int32($0)) }
            for (index, descriptor) in descriptors.enumerated() { dup2(descriptor, Int32(index)) }
            defer {
                for (index, descriptor) in saved.enumerated() where descriptor >= 0 {
                    dup2(descriptor, Int32(index))
                    close(descriptor)
                }
            }
            return body()
        }
    }
}

/// A screen of a module's own process, and every screen it leads to, watched for the person
/// quitting: the app that handed its terminal over quits too.
@MainActor
final class QuitWatch: Screen {
    final class Flag {
        var value = false
    }

    let screen: any Screen
    let quit: Flag

    init(_ screen: any Screen, quit: Flag = Flag()) {
        self.screen = screen
        self.quit = quit
    }

    var title: String? { screen.title }

    func show(_ ui: TerminalUI) -> Navigation {
        let next = screen.show(ui)
        switch next {
        case .push(let pushed): return .push(QuitWatch(pushed, quit: quit))
        case .replace(let replacing): return .replace(QuitWatch(replacing, quit: quit))
        case .replaceRoot(let root): return .replaceRoot(QuitWatch(root, quit: quit))
        case .quit:
            quit.value = true
            return .quit
        case .pop, .stay: return next
        @unknown default: return next
        }
    }
}
