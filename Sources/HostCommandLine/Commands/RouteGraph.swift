import Foundation
import HostGraph
import HostLifecycle
import HostModel
import ModuleKit

/// `modhost graph [--format text|dot|svg]`: the modules and their provides, requires and uses
/// edges, each module with its state, from the descriptors only (no library is opened, so a
/// module that fails to load is drawn too).
struct RouteGraph {
    let modules: [ModuleReport]
    let strings: ModuleStrings?

    /// One module's need of a route: who provides it (`nil`: nobody does), and whether it is
    /// a hard requirement or a use.
    struct Edge: Equatable {
        let from: String
        let route: String
        let to: String?
        let required: Bool
    }

    var edges: [Edge] {
        var providers: [String: String] = [:]
        for module in modules {
            for route in module.provides where providers[route] == nil { providers[route] = module.name }
        }
        for route in HostRuntime.hostRouteNames { providers[route] = providers[route] ?? HostRuntime.hostName }
        return modules.flatMap { module in
            module.requires.map { Edge(from: module.name, route: $0, to: providers[$0], required: true) }
                + module.uses.map { Edge(from: module.name, route: $0, to: providers[$0], required: false) }
        }
    }

    private func state(_ module: ModuleReport) -> String {
        HostText("report.state." + module.state.rawValue, module.state.rawValue).render(strings)
    }

    /// Each module, what it provides, and each route it needs with its provider.
    var text: String {
        var lines: [String] = []
        for module in modules {
            lines.append("\(module.name) \(module.version ?? "-") (\(state(module)))")
            for route in module.provides { lines.append("  provides \(route)") }
            for edge in edges where edge.from == module.name {
                let verb = edge.required ? "requires" : "uses"
                let provider = edge.to.map { "← \($0)" } ?? HostText("graph.no.provider", "← no module provides it").render(strings)
                lines.append("  \(verb) \(edge.route) \(provider)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Graphviz DOT: a box per module (grey when disabled, red when failed, orange when
    /// skipped), an edge per route a module needs (solid: requires, dashed: uses), to its
    /// provider or to a dotted node when nobody provides it.
    var dot: String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let colors: [ModuleState: String] = [.active: "black", .disabled: "gray", .failed: "red", .skipped: "orange"]
        var lines = ["digraph modhost {", "  rankdir=LR;", "  node [shape=box];"]
        for module in modules {
            let label = "\(module.name)\\n\(module.version ?? "-") \(state(module))"
            lines.append("  \(quoted(module.name)) [label=\(quoted(label)), color=\(colors[module.state] ?? "black")];")
        }
        let hostNeeded = edges.contains { $0.to == HostRuntime.hostName }
        if hostNeeded { lines.append("  \(quoted(HostRuntime.hostName)) [shape=ellipse];") }
        for edge in edges {
            let style = edge.required ? "solid" : "dashed"
            if let to = edge.to {
                lines.append("  \(quoted(edge.from)) -> \(quoted(to)) [label=\(quoted(edge.route)), style=\(style)];")
            } else {
                let missing = "no provider: " + edge.route
                lines.append("  \(quoted(missing)) [shape=plaintext, fontcolor=red];")
                lines.append("  \(quoted(edge.from)) -> \(quoted(missing)) [label=\(quoted(edge.route)), style=dotted, color=red];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `dot` executable on `PATH`, if Graphviz is installed.
    static func graphvizDot(path: String = ProcessInfo.processInfo.environment["PATH"] ?? "") -> String? {
        path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
