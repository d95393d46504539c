// modhost-bench: start-up, module load and resolve costs, each beside a baseline measured in
// the same run. Build and run in release:
//
//     swift build -c release && .build/release/modhost-bench
//
// Medians of repeated rounds; the ratios are what to compare across machines.
import Foundation
import HostCommandLine

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child-load", arguments.count == 2 {
    // One cold load in a fresh process: prints nanoseconds for load+register+start+seal.
    print(ChildLoad.run(configPath: arguments[1]))
    exit(0)
}
if arguments.first == "--decode-pages", arguments.count == 2, let count = Int(arguments[1]) {
    // For counting allocations under valgrind: decode `count` 200-hit pages, then exit.
    PhotosBenchmark.decodePages(count)
    exit(0)
}
let rounds = Int(ProcessInfo.processInfo.environment["BENCH_ROUNDS"] ?? "") ?? 21
// Name groups to run only those: startup, guard, load, resolve, auth, geo, photos; and dev
// (a module author's edit loop; needs swift on PATH, so only when named), screen (the
// full-screen app on a pseudo-terminal) and isolation (the floor of a call to a module in a
// process of its own; only when named), and live (a new library put in place under the open
// app until its code answers; only when named).
let groups = Set(arguments.isEmpty ? ["startup", "guard", "load", "resolve", "auth", "geo", "photos", "screen"] : arguments)
let report = BenchReport()
if groups.contains("startup") { StartupBenchmark(rounds: rounds).run(into: report) }
if groups.contains("guard") { GuardBenchmark(rounds: rounds).run(into: report) }
if groups.contains("load") { ModuleLoadBenchmark(rounds: rounds).run(into: report) }
if groups.contains("resolve") {
    ResolveBenchmark(rounds: rounds).run(into: report)
    RouteShapesBenchmark(rounds: rounds).run(into: report)
}
if groups.contains("auth") { AuthBenchmark(rounds: rounds).run(into: report) }
if groups.contains("geo") { GeoBenchmark(rounds: rounds).run(into: report) }
if groups.contains("photos") { PhotosBenchmark(rounds: rounds).run(into: report) }
if groups.contains("screen") { ScreenBenchmark(rounds: rounds).run(into: report) }
if groups.contains("dev") { DevLoopBenchmark(rounds: min(rounds, 7)).run(into: report) }
if groups.contains("isolation") { IsolationBenchmark(rounds: rounds).run(into: report) }
if groups.contains("live") { LiveRestartBenchmark(rounds: rounds).run(into: report) }
report.print()
