import FoundationEssentials
import Glibc
import HostLifecycle
import HostModel
import HostProcesses

extension Builtins {
    /// `modhost graph [--format text|dot|svg]`: the route graph from the descriptors (no
    /// library opened), as text, DOT, or SVG drawn by Graphviz's `dot` when it is installed.
    struct Graph: CommandInSession, Equatable {
        var format = GraphFormat.text

        static let declaration = Builtin(
            id: "graph", word: "graph", usage: "graph [--format F]",
            summary: ["Draw the modules and their routes: a text tree,", "or --format dot or svg (Graphviz)"],
            options: [
                CommandLineTable.Option(
                    id: "graph.format", names: ["--format"], value: "FORMAT", summary: ["text (the default), dot, or svg through Graphviz"],
                    apply: { parsed, value, _ throws(UsageError) in parsed.commandOptions.format = try GraphFormat.parse(value) },
                    values: GraphFormat.allCases.map(\.rawValue))
            ],
            access: .readsOnly, describesEveryModule: true,
            make: { rest, options throws(UsageError) in
                try Builtin.noArgument("graph", rest)
                return Graph(format: options.format ?? .text)
            }, example: "modhost graph --format svg > modules.svg")

        func run(in session: HostSession) -> Int32 {
            let (runtime, console) = (session.runtime, session.console)
            runtime.planOnly()
            let graph = RouteGraph(modules: runtime.modules, strings: runtime.strings)
            switch format {
            case .text: console.out(graph.text)
            case .dot: console.out(graph.dot)
            case .svg: return Self.draw(graph, console)
            }
            return ModhostCommandLine.exitSuccess
        }

        /// The graph as SVG, drawn by Graphviz's `dot` from a private temporary file.
        private static func draw(_ graph: RouteGraph, _ console: Console) -> Int32 {
            guard let dot = RouteGraph.graphvizDot() else {
                console.error(
                    HostText(
                        "graph.no.graphviz",
                        "'dot' (Graphviz) is not on PATH: install it ('apt-get install graphviz'), or print DOT with 'modhost graph --format dot'"
                    ))
                return ModhostCommandLine.exitFailure
            }
            let file = TemporaryFolder.path + "modhost-graph-\(getpid())-\(UUID().uuidString).dot"
            defer { unlink(file) }
            guard FileManager.default.createFile(atPath: file, contents: Data(graph.dot.utf8), attributes: [.posixPermissions: 0o600]),
                let pid = ChildCommand.spawn([dot, "-Tsvg", file], output: .inherited)
            else {
                console.error(HostText("graph.dot.failed", "could not run '%@'", [.plain(dot)]))
                return ModhostCommandLine.exitFailure
            }
            let status = ChildCommand.wait(pid)
            return status == 0 ? ModhostCommandLine.exitSuccess : ModhostCommandLine.exitFailure
        }
    }
}
