import FixtureContracts
import Foundation
import HostCore
import ModuleKit

/// ns per resolve of a singleton route through a sealed resolver, and per call through the
/// resolved route, against two baselines in the same process: a `[ObjectIdentifier: Any]`
/// lookup with an `as?` protocol cast, and a typed box behind an `ObjectIdentifier` key.
struct ResolveBenchmark {
    let rounds: Int
    let iterations = 2_000_000

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

        let resolve = measure {
            for _ in 0..<iterations { consume(try? resolver.resolve((any GreetingRoute).self)) }
        }
        let dictionaryCast = measure {
            for _ in 0..<iterations { consume(anyTable[key] as? any GreetingRoute) }
        }
        let typedBox = measure {
            for _ in 0..<iterations {
                if let box = boxTable[key] { consume(unsafeDowncast(box, to: Box<any GreetingRoute>.self).value) }
            }
        }
        let throughRoute = measure {
            for _ in 0..<iterations { consume(greeter.greet("x")) }
        }
        let concrete = ConcreteGreeter()
        let direct = measure {
            for _ in 0..<iterations { consume(concrete.greet("x")) }
        }
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

    /// Median ns per iteration over `rounds` rounds.
    private func measure(_ body: () -> Void) -> Double {
        body()  // warm up
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = now()
            body()
            samples.append(Double(now() - start) / Double(iterations))
        }
        return median(samples)
    }

    private func loadProvider() -> (ModuleResolver, any GreetingRoute)? {
        do {
            let configuration = try ModulesFileDecoder(defaultSearchPath: buildFolder)
                .decode(contentsOf: writeConfig(["FixtureProvider"], name: "resolve"))
            let runtime = try HostRuntime(configuration: configuration, logSink: { _ in })
            runtime.start()
            let resolver = runtime.resolver
            return (resolver, try resolver.resolve((any GreetingRoute).self))
        } catch {
            return nil
        }
    }
}

struct ConcreteGreeter {
    @inline(never)
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}
