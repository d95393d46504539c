/// Orders modules from what they provide and require, and explains every module that cannot
/// start: a route no active module provides, a route two modules provide, a cycle.
///
/// Hard edges (`requires`) decide order and whether a module may start; soft edges (`uses`)
/// only improve order, and are dropped where they would close a cycle.
struct DependencyGraph {
    /// A module, with the route names its descriptor declares, in file order.
    struct Node {
        let name: String
        let descriptor: ModuleDescriptor
    }

    /// The outcome: an order to start in, and the modules that must not start.
    struct Plan {
        /// Every node not blocked, in an order where providers come before their consumers.
        var order: [String]
        /// Modules that must not start, with their state and reason.
        var blocked: [String: (state: ModuleState, reason: HostText)]
        /// The provider of each route, by route.
        var providers: [String: String]
    }

    let nodes: [Node]
    /// Nodes that already failed (e.g. a bad config): they still count as providers, so their
    /// consumers learn why.
    var alreadyFailed: [String: HostText] = [:]
    /// Routes the host itself provides (to every module).
    let hostRoutes: [String]
    /// Explains a route that no loaded module provides (e.g. "Geo is disabled in modules.json").
    let explainMissing: (String) -> HostText?

    func plan() -> Plan {
        var blocked = alreadyFailed.mapValues { (state: ModuleState.failed, reason: $0) }
        var providers: [String: String] = [:]
        for route in hostRoutes { providers[route] = HostRuntime.hostName }
        for node in nodes {
            for route in node.descriptor.provides {
                if let first = providers[route], blocked[node.name] == nil {
                    blocked[node.name] = (
                        .failed,
                        HostText(
                            "reason.provides.twice", "provides '%@', which '%@' also provides; disable one of them in modules.json",
                            [.plain(route), .plain(first)])
                    )
                } else {
                    providers[route] = node.name
                }
            }
        }
        for (name, cycle) in cycles(providers: providers) where blocked[name] == nil {
            blocked[name] = (.failed, HostText("reason.cycle", "dependency cycle: %@", [.plain(cycle.joined(separator: " → "))]))
        }
        let order = topologicalOrder(providers: providers)
        // Whatever requires a blocked or missing provider is skipped, in order, so the reason
        // travels down the chain.
        for name in order where blocked[name] == nil {
            guard let node = nodes.first(where: { $0.name == name }) else { continue }
            if let reason = Self.unmetRequirement(
                requiring: node.descriptor.requires, providers: providers, explainMissing: explainMissing,
                stateOf: { provider in
                    blocked[provider].map { ($0.state, $0.reason) }
                })
            {
                blocked[name] = (.skipped, reason)
            }
        }
        return Plan(order: order.filter { blocked[$0] == nil }, blocked: blocked, providers: providers)
    }

    /// Why a module requiring `routes` cannot start, or `nil` when every one has a working
    /// provider. `stateOf` answers for a provider that is not working (failed or skipped).
    static func unmetRequirement(
        requiring routes: [String],
        providers: [String: String],
        explainMissing: (String) -> HostText?,
        stateOf: (String) -> (ModuleState, HostText)?
    ) -> HostText? {
        for route in routes {
            guard let provider = providers[route] else {
                guard let why = explainMissing(route) else {
                    return HostText("reason.requires.none", "requires '%@', which no active module provides", [.plain(route)])
                }
                return HostText(
                    "reason.requires.none.why", "requires '%@', which no active module provides: %@", [.plain(route), .text(why)])
            }
            if let (state, reason) = stateOf(provider) {
                let key = state == .failed ? "reason.requires.failed" : "reason.requires.skipped"
                let template =
                    state == .failed ? "requires '%@' from '%@', which failed: %@" : "requires '%@' from '%@', which was skipped: %@"
                return HostText(key, template, [.plain(route), .plain(provider), .text(reason)])
            }
        }
        return nil
    }

    /// Each module in a cycle of hard edges, with the cycle written out from it and back.
    private func cycles(providers: [String: String]) -> [String: [String]] {
        let edges = hardEdges(providers: providers)
        var result: [String: [String]] = [:]
        for node in nodes where result[node.name] == nil {
            if let path = pathBack(from: node.name, edges: edges) {
                for member in path.dropLast() where result[member] == nil {
                    result[member] = rotate(path, to: member)
                }
            }
        }
        return result
    }

    /// A path `start → … → start` along hard edges, if there is one (breadth first: shortest).
    private func pathBack(from start: String, edges: [String: [String]]) -> [String]? {
        var previous: [String: String] = [:]
        var queue = [start]
        var index = 0
        while index < queue.count {
            let current = queue[index]
            index += 1
            for next in edges[current] ?? [] {
                if next == start {
                    var path = [start]
                    var step: String? = current
                    while let node = step, node != start {
                        path.insert(node, at: 1)
                        step = previous[node]
                    }
                    return path + [start]
                }
                if previous[next] == nil {
                    previous[next] = current
                    queue.append(next)
                }
            }
        }
        return nil
    }

    /// The cycle `a → b → c → a` written from `member`: `b → c → a → b`.
    private func rotate(_ cycle: [String], to member: String) -> [String] {
        let ring = Array(cycle.dropLast())
        guard let position = ring.firstIndex(of: member) else { return cycle }
        let rotated = Array(ring[position...] + ring[..<position])
        return rotated + [member]
    }

    /// Consumer → providers it requires (modules only; the host is always there).
    private func hardEdges(providers: [String: String]) -> [String: [String]] {
        var edges: [String: [String]] = [:]
        for node in nodes {
            edges[node.name] = node.descriptor.requires.compactMap { providers[$0] }.filter { $0 != HostRuntime.hostName }
        }
        return edges
    }

    /// Providers before consumers; ties keep file order. Soft edges are honoured while they
    /// do not block progress.
    private func topologicalOrder(providers: [String: String]) -> [String] {
        let names = nodes.map(\.name)
        var hard: [String: Set<String>] = [:]
        var soft: [String: Set<String>] = [:]
        for node in nodes {
            hard[node.name] = Set(node.descriptor.requires.compactMap { providers[$0] }).intersection(names)
            soft[node.name] = Set(node.descriptor.uses.compactMap { providers[$0] }).intersection(names).subtracting([node.name])
        }
        var placed: [String] = []
        var placedSet: Set<String> = []
        while placed.count < names.count {
            let remaining = names.filter { !placedSet.contains($0) }
            let ready =
                remaining.first { name in
                    hard[name, default: []].isSubset(of: placedSet) && soft[name, default: []].isSubset(of: placedSet)
                }
                ?? remaining.first { hard[$0, default: []].isSubset(of: placedSet) }
                // Only modules in a cycle are left; they are blocked and never start.
                ?? remaining[0]
            placed.append(ready)
            placedSet.insert(ready)
        }
        return placed
    }
}
