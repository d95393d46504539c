@_spi(Host) import ModuleKit
import ModuleKitTesting

/// A route of each shape, resolved through a sealed locator beside the typed box (a
/// dictionary of boxes under `ObjectIdentifier` keys), interleaved: a class-bound protocol
/// (`AnyObject`: the existential is one reference) and a plain one (an existential box).
struct RouteShapesBenchmark {
    let rounds: Int
    let iterations = 1_000_000

    func run(into report: BenchReport) {
        let locator = ServiceLocator()
        let provider = ModuleManifest(
            name: "Shapes", version: "1", provides: [.route((any ClassBoundRoute).self), .route((any ValueRoute).self)])
        let consumer = ModuleManifest(
            name: "User", version: "1", requires: [.route((any ClassBoundRoute).self), .route((any ValueRoute).self)])
        let registry = ModuleRegistry(
            context: ModuleContext.testing(moduleName: "Shapes", resolver: locator.resolver(for: provider)), locator: locator)
        do {
            try registry.route((any ClassBoundRoute).self, .singleton(ClassBoundService()))
            try registry.route((any ValueRoute).self, .singleton(ValueService(seed: 3)))
        } catch {
            report.add("route shapes", "FAILED: \(error)")
            return
        }
        locator.seal()
        let resolver = locator.resolver(for: consumer)
        var boxes: [ObjectIdentifier: AnyObject] = [:]
        for other in (0..<32).map({ ResolveBenchmark.Box($0) }) { boxes[ObjectIdentifier(other)] = other }
        let classKey = ObjectIdentifier((any ClassBoundRoute).self)
        let valueKey = ObjectIdentifier((any ValueRoute).self)
        boxes[classKey] = ResolveBenchmark.Box<any ClassBoundRoute>(ClassBoundService())
        boxes[valueKey] = ResolveBenchmark.Box<any ValueRoute>(ValueService(seed: 3))
        let iterations = self.iterations
        let bodies: [() -> Void] = [
            {
                var sink = 0
                for _ in 0..<iterations {
                    if let route = try? resolver.resolve((any ClassBoundRoute).self) { sink &+= Int(bitPattern: ObjectIdentifier(route)) }
                }
                consume(sink)
            },
            {
                var sink = 0
                for _ in 0..<iterations {
                    if let route: any ClassBoundRoute = boxed(boxes, classKey) { sink &+= Int(bitPattern: ObjectIdentifier(route)) }
                }
                consume(sink)
            },
            {
                var sink = 0
                for _ in 0..<iterations {
                    if let route = try? resolver.resolve((any ValueRoute).self) { sink &+= route.seed }
                }
                consume(sink)
            },
            {
                var sink = 0
                for _ in 0..<iterations {
                    if let route: any ValueRoute = boxed(boxes, valueKey) { sink &+= route.seed }
                }
                consume(sink)
            },
            // A caller that keeps the route (in a property, as a screen or a service does)
            // owns it: the typed box pays the retain the resolve always pays.
            {
                let holder = Holder()
                for _ in 0..<iterations { holder.route = try? resolver.resolve((any ClassBoundRoute).self) }
                consume(holder)
            },
            {
                let holder = Holder()
                for _ in 0..<iterations { holder.route = boxed(boxes, classKey) }
                consume(holder)
            },
        ]
        let medians = measureInterleaved(bodies, rounds: rounds, iterations: iterations)
        report.add(
            "resolve class-bound route (sealed)",
            format(nanoseconds: medians[0]) + String(format: "  (x%.2f of the typed box, %.1f ns)", medians[0] / medians[1], medians[1]))
        report.add(
            "resolve class-bound route, kept by the caller",
            format(nanoseconds: medians[4])
                + String(format: "  (x%.2f of the typed box kept, %.1f ns)", medians[4] / medians[5], medians[5]))
        report.add(
            "resolve existential route (sealed)",
            format(nanoseconds: medians[2]) + String(format: "  (x%.2f of the typed box, %.1f ns)", medians[2] / medians[3], medians[3]))
    }
}

/// The typed box as a resolve: the value under `key`, out of its box, as `T` (what
/// `resolve` hands back), or nil.
@inline(__always)
func boxed<T>(_ boxes: [ObjectIdentifier: AnyObject], _ key: ObjectIdentifier) -> T? {
    guard let box = boxes[opaque(key)] else { return nil }
    return unsafeDowncast(box, to: ResolveBenchmark.Box<T>.self).value
}

protocol ClassBoundRoute: AnyObject, Sendable {}
final class Holder {
    var route: (any ClassBoundRoute)?
}
protocol ValueRoute: Sendable { var seed: Int { get } }
final class ClassBoundService: ClassBoundRoute {}
struct ValueService: ValueRoute { let seed: Int }

/// Median ns per iteration of each body over `rounds` rounds, the bodies taking turns within
/// each round so that every one sees the same machine (this one is noisy).
func measureInterleaved(_ bodies: [() -> Void], rounds: Int, iterations: Int) -> [Double] {
    for body in bodies { body() }  // warm up
    var samples = Array(repeating: [Double](), count: bodies.count)
    for _ in 0..<rounds {
        for (index, body) in bodies.enumerated() {
            let start = now()
            body()
            samples[index].append(Double(now() - start) / Double(iterations))
        }
    }
    return samples.map(median)
}
