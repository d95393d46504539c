import Contracts
import HostLoading
import HostModel
import ModuleKit

/// A route, who provides it and who consumes it: `modhost routes`.
public struct RouteReport: Sendable, Equatable {
    public let route: String
    /// The providing module (or `modhost`), with its state when it is not active.
    public let provider: String?
    /// Consumers as `Name (requires)` or `Name (uses)`, in file order.
    public let consumers: [String]
}

extension HostRuntime {
    /// Every route that a loaded module or the host declares, sorted by name.
    public var routes: [RouteReport] {
        read { state in
            // From the descriptors: a module skipped before loading still shows what it declares.
            var routes: [String: (provider: String?, consumers: [String])] = [:]
            for route in Self.hostRoutes { routes[route.name] = (Self.hostName, []) }
            for report in state.reports {
                guard let manifest = state.inspected[report.name]?.descriptor, report.state != .disabled else { continue }
                let label = report.state == .active ? report.name : "\(report.name) [\(report.state.rawValue)]"
                for route in manifest.provides where routes[route]?.provider == nil {
                    routes[route, default: (nil, [])].provider = label
                }
                for route in manifest.requires { routes[route, default: (nil, [])].consumers.append("\(label) (requires)") }
                for route in manifest.uses { routes[route, default: (nil, [])].consumers.append("\(label) (uses)") }
            }
            return routes.map { RouteReport(route: $0.key, provider: $0.value.provider, consumers: $0.value.consumers) }
                .sorted { $0.route < $1.route }
        }
    }
}
