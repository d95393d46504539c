@_spi(Host) import ModuleKit
import ModuleKitTesting

/// A route of each shape, resolved through a sealed locator beside the typed box (a
/// dictionary of boxes under `ObjectIdentifier` keys), interleaved: a class-bound protocol
/// (`AnyObject`: the existential is one reference) and a plain one (an existential box).
///
/// A dictionary seeds its hashing with its storage's address, so one table's layout (which
/// keys collide) changes from run to run and moved a ratio by half (x1.26 in one run, x1.81
/// in the next). Each sample therefore spreads its iterations over several locators and box
/// tables, made apart: the ratios compare typical lookups, not one lucky or unlucky layout.
struct RouteShapesBenchmark {
    let rounds: Int
    let iterations = 1_000_000
    let layouts = 8

    /// One sealed locator and one table of boxes holding both routes.
    struct Layout {
        let resolver: ModuleResolver
        let boxes: [ObjectIdentifier: AnyObject]
        /// Keeps the locator alive: resolvers hold it unowned.
        let locator: ServiceLocator
    }

    func run(into report: BenchReport) {
        var layouts: [Layout] = []
        for _ in 0..<self.layouts {
            do {
                layouts.append(try makeLayout())
            } catch {
                report.add("route shapes", "FAILED: \(error)")
                return
            }
        }
        let perLayout = iterations / layouts.count
        let classKey = ObjectIdentifier((any ClassBoundRoute).self)
        let valueKey = ObjectIdentifier((any ValueRoute).self)
        let bodies: [() -> Void] = [
            {
                var sink = 0
                for layout in layouts {
                    let resolver = layout.resolver
                    for _ in 0..<perLayout {
                        if let route = try? resolver.resolve((any ClassBoundRoute).self) {
                            sink &+= Int(bitPattern: ObjectIdentifier(route))
                        }
                    }
                }
                consume(sink)
            },
            {
                var sink = 0
                for layout in layouts {
                    let boxes = layout.boxes
                    for _ in 0..<perLayout {
                        if let route: any ClassBoundRoute = boxed(boxes, classKey) { sink &+= Int(bitPattern: ObjectIdentifier(route)) }
                    }
                }
                consume(sink)
            },
            {
                var sink = 0
                for layout in layouts {
                    let resolver = layout.resolver
                    for _ in 0..<perLayout {
                        if let route = try? resolver.resolve((any ValueRoute).self) { sink &+= route.seed }
                    }
                }
                consume(sink)
            },
            {
                var sink = 0
                for layout in layouts {
                    let boxes = layout.boxes
                    for _ in 0..<perLayout {
                        if let route: any ValueRoute = boxed(boxes, valueKey) { sink &+= route.seed }
                    }
                }
                consume(sink)
            },
            // A caller that keeps the route (in a property, as a screen or a service does)
            // owns it: the typed box pays the retain the resolve always pays.
            {
                let holder = Holder()
                for layout in layouts {
                    let resolver = layout.resolver
                    for _ in 0..<perLayout { holder.route = try? resolver.resolve((any ClassBoundRoute).self) }
                }
                consume(holder)
            },
            {
                let holder = Holder()
                for layout in layouts {
                    let boxes = layout.boxes
                    for _ in 0..<perLayout { holder.route = boxed(boxes, classKey) }
                }
                consume(holder)
            },
        ]
        let medians = measureInterleaved(bodies, rounds: rounds, iterations: perLayout * layouts.count)
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

    /// A locator with a provider of both routes and a consumer that requires them, sealed,
    /// and a box table with as many other keys as a real app registers.
    private func makeLayout() throws -> Layout {
        let (locator, access) = ServiceLocator.withHostAccess()
        let provider = ModuleManifest(
            name: "Shapes", version: "1", provides: [.route((any ClassBoundRoute).self), .route((any ValueRoute).self)])
        let consumer = ModuleManifest(
            name: "User", version: "1", requires: [.route((any ClassBoundRoute).self), .route((any ValueRoute).self)])
        let registry = ModuleRegistry(
            context: ModuleContext.testing(moduleName: "Shapes", resolver: locator.resolver(for: provider, access: access)),
            locator: locator)
        try registry.route((any ClassBoundRoute).self, .singleton(ClassBoundService()))
        try registry.route((any ValueRoute).self, .singleton(ValueService(seed: 3)))
        locator.seal()
        var boxes: [ObjectIdentifier: AnyObject] = [:]
        for other in (0..<32).map({ ResolveBenchmark.Box($0) }) { boxes[ObjectIdentifier(other)] = other }
        boxes[ObjectIdentifier((any ClassBoundRoute).self)] = ResolveBenchmark.Box<any ClassBoundRoute>(ClassBoundService())
        boxes[ObjectIdentifier((any ValueRoute).self)] = ResolveBenchmark.Box<any ValueRoute>(ValueService(seed: 3))
        return Layout(resolver: locator.resolver(for: consumer, access: access), boxes: boxes, locator: locator)
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
