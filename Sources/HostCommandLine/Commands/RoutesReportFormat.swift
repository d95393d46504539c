import HostLifecycle
import HostModel
import ModuleKit

/// `modhost routes` as a table, its words from `strings` (English without them). Consumers keep
/// the manifest's own words, `(requires)` and `(uses)`.
enum RoutesReportFormat {
    static func table(_ routes: [RouteReport], strings: ModuleStrings? = nil) -> String {
        func word(_ key: String, _ english: String) -> String { HostText(key, english).render(strings) }
        let rows = routes.map { route in
            [
                route.route, route.provider ?? word("routes.none", "(none)"),
                route.consumers.isEmpty ? "-" : route.consumers.joined(separator: ", "),
            ]
        }
        let header = [word("routes.route", "ROUTE"), word("routes.provider", "PROVIDER"), word("routes.consumers", "CONSUMERS")]
        return Table(header: header, rows: rows).lines.joined(separator: "\n") + "\n"
    }
}
