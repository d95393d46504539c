import Foundation

/// What guarded loading costs, on the shipped modules.json (Auth, Photos, Geo, Settings):
///
/// - reading the four descriptors from their files (`--help`, which runs no module code)
///   against `--version` (no modules at all) and against loading and starting them (`modules`);
/// - `modules` with and without crash records (the marker written around every module call);
/// - with `MODHOST_BASELINE=<another build folder>` (e.g. a release build of the commit
///   before guarded loading), `check` and `modules` of that build beside this one's,
///   interleaved, as ratios.
struct GuardBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        let shipped = shippedConfig()
        let data = NSTemporaryDirectory() + "modhost-bench-guard-data"
        setenv("MODHOST_DATA_DIR", data, 1)
        let current = buildFolder + "/modhost"
        // Time nothing unless the four modules really start: stale or missing libraries fail
        // fast and would look like a fast start.
        let active = activeModules(current, shipped)
        guard active == 4 else {
            report.add("guard: modules", "only \(active) of 4 modules start; build them in this configuration first")
            return
        }
        var runs: [String: [Double]] = [:]
        let baseline = ProcessInfo.processInfo.environment["MODHOST_BASELINE"].map { $0 + "/modhost" }
        for _ in 0..<rounds {
            runs["version", default: []].append(timeProcess(current, ["--version"]))
            runs["help", default: []].append(timeProcess(current, ["--config", shipped, "--help"]))
            runs["modules", default: []].append(timeProcess(current, ["--config", shipped, "modules"]))
            runs["modules-norecords", default: []].append(timeProcess(current, ["--config", shipped, "--no-crash-records", "modules"]))
            runs["check", default: []].append(timeProcess(current, ["--config", shipped, "check"]))
            if let baseline {
                runs["base-modules", default: []].append(timeProcess(baseline, ["--config", shipped, "modules"]))
                runs["base-check", default: []].append(timeProcess(baseline, ["--config", shipped, "check"]))
            }
        }
        let m = runs.mapValues(median)
        func ms(_ key: String) -> String { format(milliseconds: m[key] ?? .nan) }
        func ratio(_ key: String, _ base: String) -> String { String(format: "x%.2f", (m[key] ?? .nan) / (m[base] ?? .nan)) }
        report.add("guard: modhost --version (no modules)", ms("version"))
        report.add(
            "guard: --help, 4 descriptors read, no code run",
            ms("help") + String(format: "  (+%.2f ms over --version)", ((m["help"] ?? 0) - (m["version"] ?? 0)) / 1e6))
        report.add(
            "guard: modules, 4 loaded and started",
            ms("modules") + String(format: "  (+%.2f ms over --help)", ((m["modules"] ?? 0) - (m["help"] ?? 0)) / 1e6))
        report.add("guard: modules --no-crash-records", ms("modules-norecords") + "  (modules is \(ratio("modules", "modules-norecords")))")
        report.add("guard: check (libraries probed in a child)", ms("check"))
        if baseline != nil {
            report.add("guard: baseline modules", ms("base-modules") + "  (this build is \(ratio("modules", "base-modules")))")
            report.add("guard: baseline check (loaded in process)", ms("base-check") + "  (this build is \(ratio("check", "base-check")))")
        }
    }
}
