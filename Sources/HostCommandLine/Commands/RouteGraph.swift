import Contracts
import FoundationEssentials
import Glibc
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
        let provider: Provider
        let required: Bool

        /// Who provides the route: a module, the host itself, or nobody.
        enum Provider: Equatable {
            case module(String)
            case host
            case none
        }

        /// The provider's name as the text shows it (`modhost` for the host), `nil` for nobody.
        var to: String? {
            switch provider {
            case .module(let name): name
            case .host: HostRuntime.hostName
            case .none: nil
            }
        }
    }

    var edges: [Edge] {
        var providers: [String: Edge.Provider] = [:]
        for module in modules {
            for route in module.provides where providers[route] == nil { providers[route] = .module(module.name) }
        }
        for route in HostRuntime.hostRouteNames { providers[route] = providers[route] ?? .host }
        return modules.flatMap { module in
            module.requires.map { Edge(from: module.name, route: $0, provider: providers[$0] ?? .none, required: true) }
                + module.uses.map { Edge(from: module.name, route: $0, provider: providers[$0] ?? .none, required: false) }
        }
    }

    /// Its state, and where it runs when that is a process of its own.
    private func state(_ module: ModuleReport) -> String {
        let word = module.state.word.render(strings)
        return module.whereItRuns.map { word + ", " + $0.render(strings) } ?? word
    }

    /// Each module, what it provides, and each route it needs with its provider.
    var text: String {
        var lines: [String] = []
        for module in modules {
            lines.append("\(module.name) \(module.version ?? "-") (\(state(module)))")
            let provides = HostText("graph.provides", "provides").render(strings)
            for route in module.provides { lines.append("  \(provides) \(route)") }
            for edge in edges where edge.from == module.name {
                let verb = (edge.required ? HostText("graph.requires", "requires") : HostText("graph.uses", "uses")).render(strings)
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
        func escaped(_ text: String) -> String {
            text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        }
        func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }
        // The host's node is "@modhost" (``hostNode``), so a module named modhost has its own.
        let colors: [ModuleState: String] = [.active: "black", .disabled: "gray", .failed: "red", .skipped: "orange"]
        var lines = ["digraph modhost {", "  rankdir=LR;", "  node [shape=box];"]
        for module in modules {
            // DOT's own line break (\n) between the escaped parts.
            let label = "\"" + escaped(module.name) + "\\n" + escaped("\(module.version ?? "-") \(state(module))") + "\""
            lines.append("  \(quoted(module.name)) [label=\(label), color=\(colors[module.state] ?? "black")];")
        }
        if edges.contains(where: { $0.provider == .host }) {
            lines.append("  \(quoted(Self.hostNode)) [label=\(quoted(HostRuntime.hostName)), shape=ellipse];")
        }
        for edge in edges {
            let style = edge.required ? "solid" : "dashed"
            switch edge.provider {
            case .module(let to):
                lines.append("  \(quoted(edge.from)) -> \(quoted(to)) [label=\(quoted(edge.route)), style=\(style)];")
            case .host:
                lines.append("  \(quoted(edge.from)) -> \(quoted(Self.hostNode)) [label=\(quoted(edge.route)), style=\(style)];")
            case .none:
                let missing = "no provider: " + edge.route
                lines.append("  \(quoted(missing)) [shape=plaintext, fontcolor=red];")
                lines.append("  \(quoted(edge.from)) -> \(quoted(missing)) [label=\(quoted(edge.route)), style=dotted, color=red];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The id of the host's own node: a module name never begins with "@".
    static let hostNode = "@" + HostRuntime.hostName

    /// The `dot` executable on `PATH`, if Graphviz is installed.
    static func graphvizDot(path: String = ProcessInfo.processInfo.environment["PATH"] ?? "") -> String? {
        path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// What `graph --format` draws: parsed once, where the option is read.
enum GraphFormat: String, CaseIterable, Sendable {
    /// A tree for a terminal (the default).
    case text
    /// Graphviz's DOT language.
    case dot
    /// SVG, drawn from the DOT by Graphviz's `dot`.
    case svg

    /// The format `value` names, or why it names none.
    static func parse(_ value: String) throws(UsageError) -> GraphFormat {
        guard let format = GraphFormat(rawValue: value) else {
            throw UsageError(key: "usage.graph.format", [value], english: "'graph --format' takes text, dot or svg, found '\(value)'")
        }
        return format
    }
}
