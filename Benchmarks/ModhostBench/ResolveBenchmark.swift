import FixtureContracts
import Foundation
import HostLifecycle
import HostModel
import ModuleKit

/// ns per resolve of a singleton route through a sealed resolver, and per call through the
/// resolved route, against two baselines in the same process: a `[ObjectIdentifier: Any]`
/// lookup with an `as?` protocol cast, and a typed box behind an `ObjectIdentifier` key.
struct ResolveBenchmark {
    let rounds: Int
    let iterations = 1_000_000

    /// The "typed box" baseline: the entry under a type's key is known to hold that type.
    final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    func run(into report: BenchReport) {
        guard let (resolver, greeter) = loadProvider() else {
            report.add("resolve", "FAILED: could not load FixtureProvider")
            return
        }
        let key = ObjectIdentifier((any GreetingRoute).self)
        var anyTable: [ObjectIdentifier: Any] = [:]
        var boxTable: [ObjectIdentifier: AnyObject] = [:]
        // Fill the baselines with as many keys as a real app registers.
        let otherKeys = (0..<32).map { Box($0) }
        for other in otherKeys {
            anyTable[ObjectIdentifier(other)] = other.value
            boxTable[ObjectIdentifier(other)] = other
        }
        anyTable[key] = greeter
        boxTable[key] = Box<any GreetingRoute>(greeter)

        let concrete = ConcreteGreeter()
        let resolveBody: () -> Void = {
            var sink = 0
            for _ in 0..<iterations {
                if let route = try? resolver.resolve((any GreetingRoute).self) { sink &+= identity(route) }
            }
            consume(sink)
        }
        let dictionaryCastBody: () -> Void = {
            var sink = 0
            for _ in 0..<iterations {
                if let route = anyTable[opaque(key)] as? any GreetingRoute { sink &+= identity(route) }
            }
            consume(sink)
        }
        let typedBoxBody: () -> Void = {
            var sink = 0
            for _ in 0..<iterations {
                if let box = boxTable[opaque(key)] { sink &+= identity(unsafeDowncast(box, to: Box<any GreetingRoute>.self).value) }
            }
            consume(sink)
        }
        let throughRouteBody: () -> Void = {
            var sink = 0
            for _ in 0..<iterations { sink &+= greeter.greet("x").utf8.count }
            consume(sink)
        }
        let directBody: () -> Void = {
            var sink = 0
            for _ in 0..<iterations { sink &+= concrete.greet("x").utf8.count }
            consume(sink)
        }
        let medians = measureInterleaved(
            [resolveBody, dictionaryCastBody, typedBoxBody, throughRouteBody, directBody], rounds: rounds, iterations: iterations)
        let (resolve, dictionaryCast, typedBox, throughRoute, direct) = (medians[0], medians[1], medians[2], medians[3], medians[4])
        report.add("resolve singleton route (sealed)", format(nanoseconds: resolve) + ratio(resolve, dictionaryCast, typedBox))
        report.add("baseline: [ObjectIdentifier: Any] + as?", format(nanoseconds: dictionaryCast))
        report.add("baseline: typed box, ObjectIdentifier key", format(nanoseconds: typedBox))
        report.add(
            "call through resolved route",
            format(nanoseconds: throughRoute) + String(format: "  (x%.2f of a direct call)", throughRoute / direct))
        report.add("baseline: direct call on a concrete struct", format(nanoseconds: direct))
    }

    private func ratio(_ value: Double, _ first: Double, _ second: Double) -> String {
        String(format: "  (x%.2f of dictionary+cast, x%.2f of typed box)", value / first, value / second)
    }

    private func loadProvider() -> (ModuleResolver, any GreetingRoute)? {
        do {
            let configuration = try ModulesFileDecoder(defaultSearchPath: buildFolder)
                .decode(contentsOf: writeConfig(["FixtureProvider"], name: "resolve"))
            let runtime = try HostRuntime(
                configuration: configuration, options: RuntimeOptions(dataFolder: NSTemporaryDirectory() + "modhost-bench-data"),
                logSink: { _ in })
            runtime.start()
            let resolver = runtime.resolver
            return (resolver, try resolver.resolve((any GreetingRoute).self))
        } catch {
            return nil
        }
    }
}

/// The key, hidden from the optimizer so a baseline's lookup is not hoisted out of its loop
/// (the resolver's atomic load already prevents that for `resolve`).
@inline(never) @_optimize(none)
func opaque(_ key: ObjectIdentifier) -> ObjectIdentifier {
    key
}

/// Something of the value that the optimizer cannot drop: its dynamic type.
@inline(__always)
func identity(_ route: any GreetingRoute) -> Int {
    unsafeBitCast(type(of: route) as Any.Type, to: Int.self)
}

struct ConcreteGreeter {
    @inline(never)
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}
