/// `modhost routes` as a table.
enum RoutesReportFormat {
    static func table(_ routes: [RouteReport]) -> String {
        let rows = routes.map { route in
            [route.route, route.provider ?? "(none)", route.consumers.isEmpty ? "-" : route.consumers.joined(separator: ", ")]
        }
        return Table(header: ["ROUTE", "PROVIDER", "CONSUMERS"], rows: rows).lines.joined(separator: "\n") + "\n"
    }
}
