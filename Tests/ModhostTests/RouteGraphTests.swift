import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `modhost graph` draws the modules and their route edges from the descriptors only, so a
/// module whose library would crash on load is drawn too, with its state.
@Suite struct RouteGraphTests {
    func world() throws -> TestHost {
        let hostile = try HostileLibrary.armedCopy(of: "HostileAbortInConstructor")
        return try TestHost(entries: [
            ("Geo", ""), ("Settings", #""enabled": false"#), ("FixtureNeedsNobody", ""), ("Photos", #""config": {"source": "catalog"}"#),
            ("HostileAbortInConstructor", #""library": "\#(hostile)""#),
        ])
    }

    @Test func theTextTreeNamesEachEdgeAndItsProvider() throws {
        let host = try world()
        let result = try host.run("graph")
        #expect(result.succeeded, "\(result)")
        let text = result.stdout
        #expect(text.contains("Geo 1.0.0 (active)\n  provides GeoRoute\n  uses SettingsRoute ← Settings\n"), "\(text)")
        #expect(text.contains("Settings 1.0.0 (disabled)\n"))
        #expect(text.contains("FixtureNeedsNobody 1.0.0 (skipped)\n  requires UnprovidedRoute ← no module provides it\n"))
        #expect(text.contains("Photos 1.0.0 (active)\n  uses GeoRoute ← Geo\n"))
        #expect(text.contains("HostileAbortInConstructor 0.0.1"), "drawn though its library aborts when opened")
        #expect(host.crashRecords == "", "no library was opened")
    }

    @Test func itsDOTIsReadByGraphviz() throws {
        let host = try world()
        let dot = try host.run("graph", "--format", "dot")
        #expect(dot.succeeded)
        let program = try RunningProgram(["/usr/bin/dot", "-Tplain"], environment: host.environment)
        program.write(dot.stdout)
        program.closeInput()
        let plain = try program.wait()
        #expect(plain.succeeded, "\(plain)")
        let edges = Set(
            plain.outputLines.filter { $0.hasPrefix("edge ") }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") })
        #expect(edges.isSuperset(of: ["edge Geo Settings", "edge Photos Geo", "edge Photos Settings"]), "\(edges)")
        #expect(edges.contains { $0.hasPrefix("edge FixtureNeedsNobody ") }, "the missing provider is drawn too")
        let nodes = plain.outputLines.filter { $0.hasPrefix("node ") }
        #expect(nodes.contains { $0.hasPrefix("node Settings ") && $0.contains(" gray") }, "a disabled module is grey")
    }

    /// Each label's name and state on lines of their own; a module named modhost is a node
    /// of its own beside the host's, which the host's routes point at.
    @Test func labelsBreakAndTheHostsNodeIsItsOwn() throws {
        // A library that is no module's called modhost: it fails, and is drawn.
        let library = try HostileLibrary.armedCopy(of: "HostileAbortInConstructor")
        let host = try TestHost(entries: [("Settings", ""), ("Geo", ""), ("modhost", #""library": "\#(library)""#)])
        let svg = try host.run("graph", "--format", "svg")
        #expect(svg.succeeded, "\(svg.stderr)")
        #expect(svg.stdout.contains(">Geo</text>") && svg.stdout.contains(">1.0.0 active</text>"), "two lines: \(svg.stdout)")
        let dot = try host.run("graph", "--format", "dot")
        #expect(dot.stdout.contains(#"  "modhost" [label="modhost\n- failed", color=red];"#), "\(dot.stdout)")
        #expect(dot.stdout.contains(#"  "@modhost" [label="modhost", shape=ellipse];"#))
        #expect(dot.stdout.contains(#"  "Settings" -> "@modhost" [label="HostInfoRoute", style=dashed];"#))
    }

    @Test func svgIsDrawnByGraphvizOrTheMissingToolIsNamed() throws {
        let host = try world()
        let svg = try host.run("graph", "--format", "svg")
        #expect(svg.succeeded, "\(svg.stderr)")
        #expect(svg.stdout.contains("<svg") && svg.stdout.contains("GeoRoute"))
        let without = try host.run(arguments: ["graph", "--format", "svg"], environment: ["PATH": "/nonexistent"])
        #expect(without.status == 1)
        #expect(without.stderr.contains("'dot' (Graphviz) is not on PATH: install it ('apt-get install graphviz')"), "\(without.stderr)")
        let bad = try host.run("graph", "--format", "png")
        #expect(bad.status == 2)
        #expect(bad.stderr == "modhost: error: 'graph --format' takes text, dot or svg, found 'png'\n")
    }
}
