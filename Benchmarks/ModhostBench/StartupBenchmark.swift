import Foundation

/// `modhost modules` with the seven test modules against `modhost modules` with none,
/// interleaved so that both see the same machine.
struct StartupBenchmark {
    let rounds: Int
    static let testModules = [
        "FixtureProvider", "FixtureConsumer", "FixtureThrowsOnStart", "FixtureNeedsNobody", "FixtureCycleA", "FixtureCycleB",
        "FixtureOptional",
    ]

    func run(into report: BenchReport) {
        let modhost = buildFolder + "/modhost"
        let empty = writeConfig([], name: "empty")
        let full = writeConfig(Self.testModules, name: "full")
        var emptyTimes: [Double] = []
        var fullTimes: [Double] = []
        for _ in 0..<rounds {
            emptyTimes.append(timeProcess(modhost, ["--config", empty, "modules"]))
            fullTimes.append(timeProcess(modhost, ["--config", full, "modules"]))
        }
        let base = median(emptyTimes)
        let loaded = median(fullTimes)
        report.add("start-up: modhost modules, no modules", format(milliseconds: base))
        report.add(
            "start-up: modhost modules, 7 test modules",
            format(milliseconds: loaded) + String(format: "  (x%.2f; +%.2f ms per module)", loaded / base, (loaded - base) / 7 / 1e6))
    }
}
