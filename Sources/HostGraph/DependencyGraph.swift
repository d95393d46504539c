import Contracts
import HostModel

/// Orders modules from what they provide and require, and explains every module that cannot
/// start: a route no active module provides, a route two modules provide, a cycle.
///
/// Hard edges (`requires`) decide order and whether a module may start; soft edges (`uses`)
/// only improve order, and are dropped where they would close a cycle.
package struct DependencyGraph {
    /// A module, with the route names its descriptor declares, in file order.
    package struct Node {
        package let name: String
        let descriptor: ModuleDescriptor

        package init(name: String, descriptor: ModuleDescriptor) {
            self.name = name
            self.descriptor = descriptor
        }
    }

    /// The outcome: an order to start in, and the modules that must not start.
    package struct Plan {
        /// Every node not blocked, in an order where providers come before their consumers.
        package var order: [String]
        /// Modules that must not start, with their state and reason.
        package var blocked: [String: (state: ModuleState, reason: HostText)]
        /// The provider of each route, by route.
        package var providers: [String: String]

        package init(order: [String], blocked: [String: (state: ModuleState, reason: HostText)], providers: [String: String]) {
            self.order = order
            self.blocked = blocked
            self.providers = providers
        }
    }

    package let nodes: [Node]
    /// Nodes that already failed (e.g. a bad config): they still count as providers, so their
    /// consumers learn why.
    package var alreadyFailed: [String: HostText] = [:]
    /// Routes the host itself provides (to every module), and the name it provides them under.
    let hostRoutes: [String]
    let hostName: String
    /// Explains a route that no loaded module provides (e.g. "Geo is disabled in modules.json").
    let explainMissing: @Sendable (String) -> HostText?

    package init(nodes: [Node], hostRoutes: [String], hostName: String, explainMissing: @escaping @Sendable (String) -> HostText?) {
        self.nodes = nodes
        self.hostRoutes = hostRoutes
        self.hostName = hostName
        self.explainMissing = explainMissing
    }

    package func plan() -> Plan {
        var blocked = alreadyFailed.mapValues { (state: ModuleState.failed, reason: $0) }
        var providers: [String: String] = [:]
        for route in hostRoutes { providers[route] = hostName }
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
        let edges = Edges(nodes: nodes, providers: providers)
        for (member, cycle) in cycles(edges) where blocked[nodes[member].name] == nil {
            let names = cycle.map { nodes[$0].name }
            blocked[nodes[member].name] = (
                .failed, HostText("reason.cycle", "dependency cycle: %@", [.plain(names.joined(separator: " → "))])
            )
        }
        let order = topologicalOrder(edges).map { nodes[$0].name }
        // Whatever requires a blocked or missing provider is skipped, and so on down the chain,
        // so the reason travels with it: breadth first from the modules already blocked and
        // those that require a route nobody provides, along the consumers of each.
        func unmet(_ index: Int) -> HostText? {
            Self.unmetRequirement(
                requiring: nodes[index].descriptor.requires, providers: providers, explainMissing: explainMissing,
                stateOf: { provider in blocked[provider].map { ($0.state, $0.reason) } })
        }
        var queue: [Int] = []
        for index in nodes.indices {
            if blocked[nodes[index].name] != nil {
                queue.append(index)
            } else if let reason = unmet(index) {
                blocked[nodes[index].name] = (.skipped, reason)
                queue.append(index)
            }
        }
        var head = 0
        while head < queue.count {
            let provider = queue[head]
            head += 1
            for consumer in edges.hardConsumers[provider] where blocked[nodes[consumer].name] == nil {
                guard let reason = unmet(consumer) else { continue }
                blocked[nodes[consumer].name] = (.skipped, reason)
                queue.append(consumer)
            }
        }
        return Plan(order: order.filter { blocked[$0] == nil }, blocked: blocked, providers: providers)
    }

    /// Why a module requiring `routes` cannot start, or `nil` when every one has a working
    /// provider. `stateOf` answers for a provider that is not working (failed or skipped).
    package static func unmetRequirement(
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

    /// The graph by node index: each node's providers it requires (hard) and uses (soft),
    /// without duplicates, and the reverse lists to walk from a provider to its consumers.
    /// Built once in O(modules + declared routes).
    package struct Edges {
        let index: [String: Int]
        let hard: [[Int]]
        let soft: [[Int]]
        let hardConsumers: [[Int]]
        let softConsumers: [[Int]]

        init(nodes: [Node], providers: [String: String]) {
            var positions: [String: Int] = [:]
            for (position, node) in nodes.enumerated() where positions[node.name] == nil { positions[node.name] = position }
            // Each call stamps what it has taken (and what it excludes) with a stamp of its own:
            // duplicates are dropped in one pass, without a Set per node.
            var stamps = [Int](repeating: -1, count: nodes.count)
            var stamp = -1
            func targets(_ routes: [String], excluding excluded: [Int]) -> [Int] {
                stamp += 1
                for position in excluded { stamps[position] = stamp }
                var found: [Int] = []
                for route in routes {
                    guard let provider = providers[route], let position = positions[provider], stamps[position] != stamp else { continue }
                    stamps[position] = stamp
                    found.append(position)
                }
                return found
            }
            let hard = nodes.map { targets($0.descriptor.requires, excluding: []) }
            let soft = nodes.indices.map { position in
                targets(nodes[position].descriptor.uses, excluding: hard[position] + [position])
            }
            var hardConsumers = [[Int]](repeating: [], count: nodes.count)
            var softConsumers = [[Int]](repeating: [], count: nodes.count)
            for consumer in nodes.indices {
                for provider in hard[consumer] { hardConsumers[provider].append(consumer) }
                for provider in soft[consumer] { softConsumers[provider].append(consumer) }
            }
            index = positions
            self.hard = hard
            self.soft = soft
            self.hardConsumers = hardConsumers
            self.softConsumers = softConsumers
        }
    }

    /// Each module in a cycle of hard edges, with the cycle written out from it and back.
    /// Strongly connected components first (Tarjan, linear); only a module inside a cycle is
    /// searched for its shortest cycle, within its component.
    private func cycles(_ edges: Edges) -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        for component in stronglyConnectedComponents(edges.hard) {
            let members = Set(component)
            guard component.count > 1 || edges.hard[component[0]].contains(component[0]) else { continue }
            for start in component.sorted() where result[start] == nil {
                guard let path = pathBack(from: start, edges: edges.hard, within: members) else { continue }
                for member in path.dropLast() where result[member] == nil {
                    result[member] = rotate(path, to: member)
                }
            }
        }
        return result
    }

    /// Tarjan's algorithm, iterative (a deep chain of modules must not overflow the stack).
    private func stronglyConnectedComponents(_ edges: [[Int]]) -> [[Int]] {
        let count = edges.count
        var order = [Int](repeating: -1, count: count)
        var lowest = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var counter = 0
        for root in 0..<count where order[root] < 0 {
            // Each frame: a node and the position of the next edge to follow from it.
            var frames: [(node: Int, next: Int)] = [(root, 0)]
            order[root] = counter
            lowest[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                if frame.next < edges[node].count {
                    frames[frames.count - 1].next += 1
                    let target = edges[node][frame.next]
                    if order[target] < 0 {
                        order[target] = counter
                        lowest[target] = counter
                        counter += 1
                        stack.append(target)
                        onStack[target] = true
                        frames.append((target, 0))
                    } else if onStack[target] {
                        lowest[node] = min(lowest[node], order[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { lowest[parent] = min(lowest[parent], lowest[node]) }
                guard lowest[node] == order[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                components.append(component)
            }
        }
        return components
    }

    /// A path `start → … → start` along hard edges inside `members`, if there is one
    /// (breadth first: shortest).
    private func pathBack(from start: Int, edges: [[Int]], within members: Set<Int>) -> [Int]? {
        var previous: [Int: Int] = [:]
        var queue = [start]
        var position = 0
        while position < queue.count {
            let current = queue[position]
            position += 1
            for next in edges[current] where members.contains(next) {
                if next == start {
                    var path = [start]
                    var step: Int? = current
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
    private func rotate(_ cycle: [Int], to member: Int) -> [Int] {
        let ring = Array(cycle.dropLast())
        guard let position = ring.firstIndex(of: member) else { return cycle }
        let rotated = Array(ring[position...] + ring[..<position])
        return rotated + [member]
    }

    /// Providers before consumers; ties keep file order. Soft edges are honoured while they
    /// do not block progress. O((modules + edges) · log modules): each module waits in two
    /// heaps keyed by file position — one once its hard edges are met, one once all are.
    private func topologicalOrder(_ edges: Edges) -> [Int] {
        let count = edges.hard.count
        var hardLeft = edges.hard.map(\.count)
        var softLeft = edges.soft.map(\.count)
        var placed = [Bool](repeating: false, count: count)
        var ready = MinHeap()
        var hardReady = MinHeap()
        for node in 0..<count where hardLeft[node] == 0 {
            hardReady.push(node)
            if softLeft[node] == 0 { ready.push(node) }
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        // Only modules in a cycle are left when both heaps are empty; they are blocked and
        // never start, and are placed in file order.
        var nextInFileOrder = 0
        while order.count < count {
            let node: Int
            if let next = ready.popFirst(where: { !placed[$0] }) ?? hardReady.popFirst(where: { !placed[$0] }) {
                node = next
            } else {
                while placed[nextInFileOrder] { nextInFileOrder += 1 }
                node = nextInFileOrder
            }
            placed[node] = true
            order.append(node)
            for consumer in edges.hardConsumers[node] {
                hardLeft[consumer] -= 1
                guard hardLeft[consumer] == 0 else { continue }
                hardReady.push(consumer)
                if softLeft[consumer] == 0 { ready.push(consumer) }
            }
            for consumer in edges.softConsumers[node] {
                softLeft[consumer] -= 1
                if softLeft[consumer] == 0 && hardLeft[consumer] == 0 { ready.push(consumer) }
            }
        }
        return order
    }
}

/// A binary min-heap of node positions.
package struct MinHeap {
    private var items: [Int] = []

    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// The smallest item that passes `keep`, removed; items that fail it are dropped.
    mutating func popFirst(where keep: (Int) -> Bool) -> Int? {
        while let top = items.first {
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    let right = left + 1
                    var smallest = parent
                    if left < items.count && items[left] < items[smallest] { smallest = left }
                    if right < items.count && items[right] < items[smallest] { smallest = right }
                    guard smallest != parent else { break }
                    items.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            if keep(top) { return top }
        }
        return nil
    }
}
