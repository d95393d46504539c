import Foundation
import TestSupport

/// `modhost-bench startup`: what a start costs beside its floors, all interleaved in one run.
///
/// - `modhost --version` (the host alone) and a C program that only `dlopen`s the libraries a
///   run needs (`modhost-floor`, the floor for loading them);
/// - `modhost modules` and the app to Welcome (input ends at once) on the shipped config —
///   four modules, Photos on its catalog, on a fresh data folder (nobody has signed up) — and
///   their peak memory beside `--version`'s, and the app's with an account signed in (its
///   database read at Welcome);
/// - `--only Geo modules` beside the floor of `libGeo.so` alone;
/// - 10, 50 and 200 generated modules: the cost of each module at each size (over an empty
///   modules.json), against the floor's cost per library (a `dlopen` of its path, and of its
///   open descriptor as the host loads the file it checked), and the growth from 10 to 200.
struct StartupBenchmark {
    let rounds: Int
    static let sizes = [10, 50, 200]

    func run(into report: BenchReport) {
        let modhost = buildFolder + "/modhost"
        let floor = buildFolder + "/modhost-floor"
        let shipped = shippedConfig()
        // Fresh data folders each run, one per build: what a run finds on disk decides what it
        // opens (the app reads Auth's database once someone has signed up, and the baseline's
        // app made that database at every start). One more with an account signed in.
        let data = dataFolder("startup")
        setenv("MODHOST_DATA_DIR", data, 1)
        let baselineData = dataFolder("startup-baseline")
        let signedIn = dataFolder("signed-in")
        guard activeModules(modhost, shipped) == 4 else {
            report.add("startup", "the four shipped modules do not all start; build them in this configuration first")
            return
        }
        guard signUp(modhost, shipped, data: signedIn) else {
            report.add("startup", "could not sign up an account with 'modhost auth register'")
            return
        }
        let generated = GeneratedModules()
        if let problem = generated.prepare(Self.sizes.max() ?? 0) {
            report.add("startup", "generated modules: \(problem)")
            return
        }
        let largest = Self.sizes.max() ?? 0
        guard activeModules(modhost, generated.config(largest)) == largest else {
            report.add("startup", "the generated modules do not all start (see 'modhost --config \(generated.config(largest)) modules')")
            return
        }
        let shippedLibraries = ["Auth", "Photos", "Geo", "Settings"].map { buildFolder + "/lib\($0).so" }
        let empty = writeConfig([], name: "startup-empty")
        let configs = Dictionary(uniqueKeysWithValues: Self.sizes.map { ($0, generated.config($0)) })
        // Every case once per round, so all see the same machine.
        var cases: [(key: String, executable: String, arguments: [String], environment: [String: String])] = [
            ("version", modhost, ["--version"], [:]), ("floor", floor, shippedLibraries, [:]),
            ("modules", modhost, ["--config", shipped, "modules"], [:]), ("app", modhost, ["--config", shipped], [:]),
            ("app-signed-in", modhost, ["--config", shipped], ["MODHOST_DATA_DIR": signedIn]),
            ("only-geo", modhost, ["--config", shipped, "--only", "Geo", "modules"], [:]),
            ("floor-geo", floor, [buildFolder + "/libGeo.so"], [:]),
            ("empty", modhost, ["--config", empty, "modules"], [:]), ("floor-none", floor, [], [:]),
        ]
        // Another build (MODHOST_BASELINE=<its build folder>), on the same shipped config.
        let baseline = ProcessInfo.processInfo.environment["MODHOST_BASELINE"].map { $0 + "/modhost" }
        if let baseline {
            let own = ["MODHOST_DATA_DIR": baselineData]
            cases += [
                ("base-version", baseline, ["--version"], own), ("base-modules", baseline, ["--config", shipped, "modules"], own),
                ("base-app", baseline, ["--config", shipped], own),
                ("base-only-geo", baseline, ["--config", shipped, "--only", "Geo", "modules"], own),
            ]
        }
        for size in Self.sizes {
            cases.append(("modules-\(size)", modhost, ["--config", configs[size] ?? "", "modules"], [:]))
            cases.append(("floor-\(size)", floor, (1...size).map(generated.library), [:]))
            cases.append(("floor-fd-\(size)", floor, ["--from-descriptor"] + (1...size).map(generated.library), [:]))
        }
        var times: [String: [Double]] = [:]
        var memory: [String: [Double]] = [:]
        // A new order each round (seeded, so runs compare): a case run right after one of the
        // 200-library processes starts about a millisecond slower (measured: `--version` read
        // 8.0 ms there against 6.9 ms elsewhere), so no case may always follow the same one.
        var order = SeededGenerator(state: 14)
        for _ in 0..<rounds {
            for run in cases.shuffled(using: &order) {
                times[run.key, default: []].append(timeProcess(run.executable, run.arguments, environment: run.environment))
            }
        }
        // Peak memory in runs of their own (fork and wait4: exact, even for a short process).
        for _ in 0..<min(rounds, 5) {
            for run in cases where !run.key.hasPrefix("floor") && !run.key.hasPrefix("modules-") {
                memory[run.key, default: []].append(peakMemory(run.executable, run.arguments, environment: run.environment))
            }
        }
        let t = times.mapValues(median)
        let mib = memory.mapValues { median($0) / 1_048_576 }
        func ms(_ key: String) -> Double { (t[key] ?? .nan) / 1e6 }
        func row(_ label: String, _ key: String, versus base: String, _ baseLabel: String) {
            report.add(label, String(format: "%.2f ms  (x%.2f of %@)", ms(key), ms(key) / ms(base), baseLabel))
        }
        report.add("startup: modhost --version", String(format: "%.2f ms, peak memory %.1f MiB", ms("version"), mib["version"] ?? .nan))
        row("startup: floor, dlopen of the 4 shipped modules", "floor", versus: "version", "--version")
        row("startup: modhost modules (shipped config)", "modules", versus: "version", "--version")
        report.add("", String(format: "x%.2f of the floor", ms("modules") / ms("floor")))
        row("startup: the app to Welcome (shipped config)", "app", versus: "version", "--version")
        report.add(
            "",
            String(
                format: "x%.2f of the floor; idle memory %.1f MiB, x%.2f of --version's", ms("app") / ms("floor"),
                mib["app"] ?? .nan, (mib["app"] ?? .nan) / (mib["version"] ?? .nan)))
        row("startup: the app to Welcome, signed in", "app-signed-in", versus: "version", "--version")
        report.add(
            "",
            String(
                format: "idle memory %.1f MiB, x%.2f of --version's", mib["app-signed-in"] ?? .nan,
                (mib["app-signed-in"] ?? .nan) / (mib["version"] ?? .nan)))
        row("startup: --only Geo modules", "only-geo", versus: "version", "--version")
        report.add("", String(format: "x%.2f of its floor (libGeo.so alone, %.2f ms)", ms("only-geo") / ms("floor-geo"), ms("floor-geo")))
        var perModule: [Int: Double] = [:]
        for size in Self.sizes {
            let host = (ms("modules-\(size)") - ms("empty")) / Double(size)
            let floorCost = (ms("floor-\(size)") - ms("floor-none")) / Double(size)
            let descriptorCost = (ms("floor-fd-\(size)") - ms("floor-none")) / Double(size)
            perModule[size] = host
            report.add(
                "startup: \(size) generated modules",
                String(
                    format: "%.2f ms; %.3f ms per module (x%.2f of the floor's %.3f ms per library)", ms("modules-\(size)"), host,
                    host / floorCost, floorCost))
            // The floor of loading each from its open descriptor, as the host loads what it checked.
            report.add(
                "",
                String(format: "x%.2f of loading from descriptors, %.3f ms per library", host / descriptorCost, descriptorCost))
        }
        if baseline != nil {
            for (key, label) in [("version", "--version"), ("modules", "modules"), ("app", "the app"), ("only-geo", "--only Geo")] {
                report.add(
                    "startup: baseline \(label)",
                    String(
                        format: "%.2f ms, %.1f MiB  (this build: x%.2f time, x%.2f memory)", ms("base-" + key), mib["base-" + key] ?? .nan,
                        ms(key) / ms("base-" + key), (mib[key] ?? .nan) / (mib["base-" + key] ?? .nan)))
            }
        }
        if let small = perModule[Self.sizes[0]], let large = perModule[Self.sizes[Self.sizes.count - 1]] {
            report.add("startup: cost per module, 200 against 10", String(format: "x%.2f", large / small))
        }
    }
}

/// The shipped modules.json's modules, searched in this build folder.
func shippedConfig() -> String {
    let entries = [
        #"{"name": "Auth", "enabled": true}"#, #"{"name": "Photos", "enabled": true, "config": {"source": "catalog", "perPage": 20}}"#,
        #"{"name": "Geo", "enabled": true}"#, #"{"name": "Settings", "enabled": true}"#,
    ]
    let path = NSTemporaryDirectory() + "modhost-bench-shipped.json"
    let json = #"{"environment": "development", "modules": [\#(entries.joined(separator: ", "))]}"#
    _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600])
    return path
}

/// A data folder for the benchmark named `name`, empty.
func dataFolder(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "modhost-bench-\(name)-data"
    try? FileManager.default.removeItem(atPath: path)
    return path
}

/// Makes an account, signed in, in the data folder `data`; false when that failed.
func signUp(_ modhost: String, _ config: String, data: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: modhost)
    process.arguments = ["--config", config, "auth", "register", "--email", "bench@example.com", "--name", "Bench", "--password-stdin"]
    process.environment = ProcessInfo.processInfo.environment.merging(["MODHOST_DATA_DIR": data]) { $1 }
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    input.fileHandleForWriting.write(Data("bench-password-1\nbench-password-1\n".utf8))
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// How many modules `modhost modules --json` reports active.
func activeModules(_ modhost: String, _ config: String) -> Int {
    output(of: modhost, ["--config", config, "modules", "--json"]).components(separatedBy: #""state":"active""#).count - 1
}
