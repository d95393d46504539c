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
    static func serve(_ runtime: HostRuntime, module: String) {
        served.withLock { $0 = (runtime, module) }
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

        @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? { nil }
    }
}
