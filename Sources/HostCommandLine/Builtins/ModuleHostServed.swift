import Contracts
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
    private static let served = Mutex<(runtime: HostRuntime, module: String, relay: ScreenRelay)?>(nil)
    /// The session the module's commands run in (one, for the process's life).
    nonisolated(unsafe) private static var session: HostSession?
    /// The link to the host it serves on (one, for the process's life).
    nonisolated(unsafe) private static var link: RouteLink?

    /// The route of each name the link serves: every route that can cross, and the control
    /// route. Found by name on its first call: the table of every route is not made before
    /// the process's hello (the host waits for it).
    static func route(named name: String) -> (@Sendable () throws -> any RouteDispatching)? {
        switch name {
        case IsolatedModule.control:
            return {
                guard let (runtime, module, _) = served.withLock({ $0 }) else { throw NotServed(why: "the module is not there yet") }
                return Control(runtime: runtime, module: module)
            }
        case IsolatedModule.screens:
            return {
                guard let (_, _, relay) = served.withLock({ $0 }) else { throw NotServed(why: "the module is not there yet") }
                return relay
            }
        default:
            guard let bridge = RouteBridge.all[name] else { return nil }
            return {
                guard let (runtime, module, relay) = served.withLock({ $0 }) else { throw NotServed(why: "the module is not there yet") }
                guard runtime.modules.contains(where: { $0.name == module && $0.provides.contains(name) }) else {
                    throw NotServed(why: "module '\(module)' does not provide '\(name)'")
                }
                // What its calls present is shown on the host's terminal, in the host's turn.
                return relay.relaying(try bridge.dispatcher(runtime.resolver))
            }
        }
    }

    /// From now on the routes are `module`'s in `runtime`.
    static func serve(_ session: HostSession, module: String, on link: RouteLink) {
        // Set once, before the link serves its first call (on this thread).
        Self.session = session
        Self.link = link
        served.withLock { $0 = (session.runtime, module, ScreenRelay(runtime: session.runtime, runsOnLentTerminal: true)) }
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
                // The host closes the link next: this process ends after its answer.
                ModuleHostServed.link?.endServingAfterThisCall()
                return .void
            case "title":
                return try call.answer(runtime.title(of: module))
            case "language":
                // The host's, the person's: this process started in its environment's.
                runtime.parentLanguage.heard(try call.value(0, as: String.self))
                return .void
            case "currentLanguage":
                // Chosen here when Settings runs here: the host takes it after a screen or a command.
                return try call.answer(runtime.locale.current)
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
                guard call.descriptors.count == 3 else {
                    throw NotServed(why: "a command needs the host's standard input, output and error")
                }
                return try call.answer(
                    try TerminalLoan.onTerminal(call.descriptors) {
                        words == [HostSession.helpWord]
                            ? session.moduleHelp(module)
                            : session.runModuleCommand(module: module, command: words.first, arguments: Array(words.dropFirst()))
                    })
            case "homeEntries":
                return try call.answer(runtime.homeEntries.map(\.entry.title))
            case "screen":
                let (index, lent) = (try call.value(0, as: Int.self), try call.value(1, as: LentTerminal.self))
                let entries = runtime.homeEntries
                guard entries.indices.contains(index) else { throw NotServed(why: "module '\(module)' has no Home entry \(index + 1)") }
                guard call.descriptors.count == 3 else {
                    throw NotServed(why: "a screen needs the host's standard input, output and error")
                }
                let end = try TerminalLoan.run(
                    entries[index].entry.open(), on: call.descriptors, lent: lent, runtime: runtime, navigator: runtime.navigator)
                // Whether the person quit the app there, not only left the module's screens.
                return try call.answer(end)
            default:
                return nil
            }
        }
    }
}
