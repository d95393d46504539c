import TestSupport
import Testing

@testable import HostGraph
@testable import HostModel

private let a = "RouteA"
private let b = "RouteB"
private let c = "RouteC"
private let d = "RouteD"

private func node(_ name: String, provides: [String] = [], requires: [String] = [], uses: [String] = []) -> DependencyGraph.Node {
    .init(
        name: name,
        descriptor: ModuleDescriptor(
            abiVersion: 2, sdkVersion: "1.0.0", compiler: "Swift", name: name, version: "1", provides: provides, requires: requires,
            uses: uses
        ))
}

private func plan(_ nodes: [DependencyGraph.Node], failed: [String: String] = [:]) -> DependencyGraph.Plan {
    var graph = DependencyGraph(nodes: nodes, hostRoutes: [], hostName: "modhost", explainMissing: { _ in nil })
    graph.alreadyFailed = failed.mapValues(HostText.plain)
    return graph.plan()
}

@Suite struct DependencyGraphTests {
    @Test func providersStartBeforeConsumersWhateverTheFileOrder() {
        let result = plan([
            node("App", requires: [b]), node("Middle", provides: [b], requires: [a]), node("Base", provides: [a]),
        ])
        #expect(result.order == ["Base", "Middle", "App"])
        #expect(result.blocked.isEmpty)
    }

    @Test func independentModulesKeepFileOrder() {
        #expect(plan([node("Z"), node("A"), node("M")]).order == ["Z", "A", "M"])
    }

    @Test func optionalRoutesOrderWhenTheyCanAndNeverBlock() {
        let result = plan([node("Reader", uses: [a, d]), node("Writer", provides: [a])])
        #expect(result.order == ["Writer", "Reader"])
        // A soft cycle is broken, not reported.
        let soft = plan([node("P", provides: [a], uses: [b]), node("Q", provides: [b], uses: [a])])
        #expect(soft.order == ["P", "Q"])
        #expect(soft.blocked.isEmpty)
    }

    @Test func aCycleIsReportedWholeForEachMember() {
        let result = plan([
            node("A", provides: [a], requires: [c]), node("B", provides: [b], requires: [a]),
            node("C", provides: [c], requires: [b]), node("Outside", requires: [a]),
        ])
        #expect(result.blocked["A"]?.state == .failed)
        #expect(result.blocked["A"]?.reason.description == "dependency cycle: A → C → B → A")
        #expect(result.blocked["B"]?.reason.description == "dependency cycle: B → A → C → B")
        #expect(result.blocked["C"]?.reason.description == "dependency cycle: C → B → A → C")
        #expect(result.blocked["Outside"]?.state == .skipped)
        #expect(
            result.blocked["Outside"]?.reason.description == "requires 'RouteA' from 'A', which failed: dependency cycle: A → C → B → A")
        #expect(result.order.isEmpty)
    }

    @Test func aModuleRequiringItsOwnRouteIsACycle() {
        #expect(plan([node("Loop", provides: [a], requires: [a])]).blocked["Loop"]?.reason.description == "dependency cycle: Loop → Loop")
    }

    @Test func aMissingRequirementSkipsTheModuleAndItsDependentsInTurn() {
        let result = plan([node("Needy", provides: [b], requires: [a]), node("Dependent", requires: [b]), node("Fine")])
        #expect(result.blocked["Needy"]?.state == .skipped)
        #expect(result.blocked["Needy"]?.reason.description == "requires 'RouteA', which no active module provides")
        #expect(result.blocked["Dependent"]?.state == .skipped)
        #expect(
            result.blocked["Dependent"]?.reason.description
                == "requires 'RouteB' from 'Needy', which was skipped: requires 'RouteA', which no active module provides")
        #expect(result.order == ["Fine"])
    }

    @Test func twoProvidersOfOneRouteIsAnErrorNamingBoth() {
        let result = plan([node("First", provides: [a]), node("Second", provides: [a]), node("User", requires: [a])])
        #expect(result.blocked["Second"]?.state == .failed)
        #expect(
            result.blocked["Second"]?.reason.description
                == "provides 'RouteA', which 'First' also provides; disable one of them in modules.json")
        #expect(result.order == ["First", "User"])
    }

    @Test func anAlreadyFailedModuleStillExplainsItsConsumers() {
        let result = plan([node("Broken", provides: [a]), node("User", requires: [a])], failed: ["Broken": "config.x is missing"])
        #expect(result.blocked["Broken"]?.reason.description == "config.x is missing")
        #expect(result.blocked["User"]?.reason.description == "requires 'RouteA' from 'Broken', which failed: config.x is missing")
    }

    /// Found by the random graphs below: a module listed before a chain that ends in a cycle
    /// was placed early by the cycle fallback and then kept, though its provider was skipped.
    @Test func aModuleAboveAChainIntoACycleIsSkipped() {
        let result = plan([
            node("App", requires: [b]), node("Middle", provides: [b], requires: [c]), node("Loop1", provides: [c], requires: [d]),
            node("Loop2", provides: [d], requires: [c]),
        ])
        #expect(result.order == [])
        #expect(result.blocked["App"]?.state == .skipped)
        #expect(
            result.blocked["App"]?.reason.description.hasPrefix(
                "requires 'RouteB' from 'Middle', which was skipped: requires 'RouteC' from 'Loop1', which failed: dependency cycle")
                == true)
    }

    /// Random graphs of up to 60 modules: whatever the edges, every module is placed once,
    /// each module that starts comes after the providers it requires, and every blocked one
    /// has a reason (a cycle, or a chain down to one).
    @Test func randomGraphsKeepTheRules() {
        var generator = SeededGenerator(state: 0x5EED)
        for _ in 0..<200 {
            let count = Int(generator.next() % 60) + 1
            let nodes = (0..<count).map { index in
                let requires = (0..<Int(generator.next() % 3)).map { _ in "R\(generator.next() % UInt64(count + 2))" }
                let uses = (0..<Int(generator.next() % 3)).map { _ in "R\(generator.next() % UInt64(count + 2))" }
                return node("M\(index)", provides: ["R\(index)"], requires: requires, uses: uses)
            }
            let result = plan(nodes)
            #expect(Set(result.order).count == result.order.count)
            #expect(Set(result.order).union(result.blocked.keys) == Set(nodes.map(\.name)))
            var position: [String: Int] = [:]
            for (index, name) in result.order.enumerated() { position[name] = index }
            for node in nodes where position[node.name] != nil {
                for route in node.descriptor.requires {
                    let provider = result.providers[route]
                    #expect(provider.flatMap { position[$0] }.map { $0 < position[node.name]! } == true, "\(node.name) before \(route)")
                }
            }
        }
    }

    /// A chain of 5000 modules, each requiring the one before it, written last to first: the
    /// sort walks it without deep recursion, and the order is the chain's.
    @Test func aLongChainIsOrdered() {
        let count = 5000
        let nodes = (0..<count).reversed().map { index in
            node("M\(index)", provides: ["R\(index)"], requires: index == 0 ? [] : ["R\(index - 1)"])
        }
        let result = plan(nodes)
        #expect(result.blocked.isEmpty)
        #expect(result.order == (0..<count).map { "M\($0)" })
        // Closing a chain of 300 into one cycle blocks every module, each naming the cycle.
        let ring = (0..<300).map { index in node("M\(index)", provides: ["R\(index)"], requires: ["R\((index + 299) % 300)"]) }
        let cycle = plan(ring)
        #expect(cycle.order.isEmpty)
        #expect(cycle.blocked.count == 300)
        #expect(cycle.blocked["M7"]?.reason.description.hasPrefix("dependency cycle: M7 → M6 → M5") == true)
    }
}
