import Foundation
import HostLifecycle
import HostModel
import ModuleKit

/// Load (dlopen + handshake) + register + start + seal of one module, cold, each in a fresh
/// process; against the same child doing it for zero modules.
struct ModuleLoadBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        let me = buildFolder + "/modhost-bench"
        let none = writeConfig([], name: "load-none")
        var baseline: [Double] = []
        var perModule: [String: [Double]] = [:]
        let modules = ["FixtureProvider", "FixtureOptional", "FixtureProvider,FixtureConsumer,FixtureOptional"]
        let configs = modules.map { writeConfig($0.split(separator: ",").map(String.init), name: "load-\($0)") }
        for _ in 0..<rounds {
            baseline.append(Double(output(of: me, ["--child-load", none]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan)
            for (module, config) in zip(modules, configs) {
                let value = Double(output(of: me, ["--child-load", config]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
                perModule[module, default: []].append(value)
            }
        }
        let base = median(baseline)
        report.add("runtime start, no modules", format(milliseconds: base))
        for module in modules {
            let value = median(perModule[module] ?? [])
            let count = module.split(separator: ",").count
            if count == 1 {
                report.add(
                    "load+register+start one module (\(module))",
                    format(milliseconds: value - base) + "  (cold process, over the empty runtime)")
            } else {
                report.add(
                    "load+register+start \(count) modules together",
                    format(milliseconds: value - base) + "  (" + format(milliseconds: (value - base) / Double(count)) + " per module)")
            }
        }
    }
}

/// The child side: measures `HostRuntime.start()` for a parsed configuration.
enum ChildLoad {
    static func run(configPath: String) -> UInt64 {
        do {
            let configuration = try ModulesFileDecoder(defaultSearchPath: buildFolder).decode(contentsOf: configPath)
            let runtime = try HostRuntime(
                configuration: configuration, options: RuntimeOptions(dataFolder: NSTemporaryDirectory() + "modhost-bench-data"),
                logSink: { _ in })
            let start = now()
            runtime.start()
            let elapsed = now() - start
            runtime.stop()
            return elapsed
        } catch {
            return 0
        }
    }
}
