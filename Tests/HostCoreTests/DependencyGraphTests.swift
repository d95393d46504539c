import Testing

@testable import HostCore

private let a = "RouteA"
private let b = "RouteB"
private let c = "RouteC"
private let d = "RouteD"

private func node(_ name: String, provides: [String] = [], requires: [String] = [], uses: [String] = []) -> DependencyGraph.Node {
    .init(
        name: name,
        descriptor: ModuleDescriptor(
            abiVersion: 1, kitFingerprint: "", sdkVersion: nil, name: name, version: "1", provides: provides, requires: requires, uses: uses
        ))
}

private func plan(_ nodes: [DependencyGraph.Node], failed: [String: String] = [:]) -> DependencyGraph.Plan {
    var graph = DependencyGraph(nodes: nodes, hostRoutes: [], explainMissing: { _ in nil })
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
}
