import Foundation
import ModuleKit

/// `modhost modules` as a table, and as the stable JSON documented in the README.
enum ModulesReportFormat {
    static func table(_ modules: [ModuleReport]) -> String {
        guard !modules.isEmpty else { return "no modules in modules.json\n" }
        let header = ["MODULE", "STATE", "VERSION", "PROVIDES", "REQUIRES", "USES"]
        let rows = modules.map { module in
            [
                module.name, module.state.rawValue, module.version ?? "-", list(module.provides), list(module.requires),
                list(module.uses),
            ]
        }
        var lines = Table(header: header, rows: rows).lines
        for (index, module) in modules.enumerated() {
            if let reason = module.reason {
                lines[index + 1] += "\n    \(module.state == .disabled ? "note" : "reason"): \(reason)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"configuration":…,"environment":…,"modules":[ModuleReport…],"schemaVersion":1}`, in
    /// the kit's one JSON format (`JSONOutput`).
    static func json(_ runtime: HostRuntime) -> String {
        struct Document: Encodable {
            let schemaVersion = JSONOutput.schemaVersion
            let environment: String
            let configuration: String
            let modules: [ModuleReport]
        }
        let document = Document(
            environment: runtime.configuration.environment.rawValue,
            configuration: runtime.configuration.path,
            modules: runtime.modules
        )
        return JSONOutput.string(document) + "\n"
    }

    private static func list(_ routes: [String]) -> String {
        routes.isEmpty ? "-" : routes.joined(separator: ",")
    }
}

/// Left-aligned columns, two spaces apart.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(to: widths[column] + 1)
            }.joined()
        }
    }
}
