import Foundation
import HostLifecycle
import HostModel
import ModuleKit

/// `modhost modules` as a table, and as the stable JSON documented in docs/USING.md.
enum ModulesReportFormat {
    /// The table, its words from `strings` (the person's language; English without them). A
    /// reason is wrapped to `width` columns when given (on a terminal), else one line (piped).
    static func table(_ modules: [ModuleReport], strings: ModuleStrings? = nil, width: Int? = nil) -> String {
        func word(_ key: String, _ english: String) -> String { HostText(key, english).render(strings) }
        guard !modules.isEmpty else { return word("report.none", "no modules in modules.json") + "\n" }
        let header = [
            word("report.module", "MODULE"), word("report.state", "STATE"), word("report.version", "VERSION"),
            word("report.provides", "PROVIDES"), word("report.requires", "REQUIRES"), word("report.uses", "USES"),
        ]
        let rows = modules.map { module in
            [
                module.name, word("report.state." + module.state.rawValue, module.state.rawValue), module.version ?? "-",
                list(module.provides), list(module.requires), list(module.uses),
            ]
        }
        var lines = Table(header: header, rows: rows).lines
        for (index, module) in modules.enumerated() {
            if let reason = module.reasonText {
                let label = module.state == .disabled ? word("report.note", "note") : word("report.reason", "reason")
                let lead = "    \(label): "
                let text = reason.render(strings)
                let parts = width.map { HelpText.wrap(text, width: max(20, $0 - lead.count), indent: "") } ?? [text]
                let under = "\n" + String(repeating: " ", count: lead.count)
                lines[index + 1] += "\n" + lead + parts.joined(separator: under)
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
