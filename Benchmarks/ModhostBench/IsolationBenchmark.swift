import Contracts
import Foundation
import HostIsolation
import HostProcesses
import HostSandbox
import ModuleKit

/// `modhost-bench isolation`: a route call to a module in a process of its own against the
/// floor it is set against — `modhost-socket-floor`'s round trip of 64 bytes over a socketpair
/// between two processes (C, nothing of the host) — interleaved round by round, so that both
/// see the same machine; then 10 000 calls a second for 10 s with each process's memory read
/// at the first and the last second; then the start of an isolated module against its start in
/// the host's process (`modhost --only Geo modules`, each way, interleaved).
///
/// The call goes through what the host runs: the generated `GeoRouteProxy`, the route link, the
/// real `modhost __module-host` and a GeoRoute that answers one city at once
/// (FixtureIsolatedGeo: Geo's own reads its database at each call, which is not the crossing). On these
/// 2-core VMs the floor swings with how busy the machine is (a halted vCPU's wake-up dominates
/// an idle one), so only the ratio taken in the same run compares.
struct IsolationBenchmark {
    let rounds: Int
    static let callsPerRound = 5_000

    func run(into report: BenchReport) {
        let data = NSTemporaryDirectory() + "modhost-bench-isolation-\(getpid())"
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: data) }
        let config = writeConfig(["FixtureIsolatedGeo", "Geo"], name: "isolation")
        guard let module = IsolatedGeo(config: config, data: data) else {
            report.add(
                "isolation: route call",
                "modhost __module-host FixtureIsolatedGeo did not start (build modhost in this configuration first)")
            return
        }
        defer { module.end() }
        // The same call with neither side looking for bytes before it sleeps (FrameChannel's
        // lookBeforeWaiting): what looking saves.
        let sleeper = IsolatedGeo(config: config, data: data, look: .zero)
        defer { sleeper?.end() }
        // The same call to a process without its sandbox ("sandbox": "off"): what the sandbox costs.
        let unconfined = IsolatedGeo(
            config: writeConfig(["FixtureIsolatedGeo", "Geo"], name: "isolation-off", entry: Self.off), data: data)
        defer { unconfined?.end() }
        // Pairs of medians, the sandboxed process's and the unconfined one's, batch by batch.
        var sandboxPairs: [(confined: Double, unconfined: Double)] = []
        var sleeping: [Double] = []
        let ticks = machineTicks()
        var floors: [Double] = []
        var floorTails: [Double] = []
        var calls: [Double] = []
        var callTails: [Double] = []
        var cpu: (host: Double, module: Double) = (0, 0)
        for _ in 0..<max(1, rounds / 4) {
            let words = output(of: buildFolder + "/modhost-socket-floor", ["\(Self.callsPerRound)"]).split(whereSeparator: {
                $0 == " " || $0 == "\n"
            })
            guard words.count == 4, let median = Double(words[1]), let tail = Double(words[3]) else {
                report.add("isolation: floor", "modhost-socket-floor did not run (build it in this configuration first)")
                return
            }
            floors.append(median)
            floorTails.append(tail)
            let before = (host: Self.onCPU("thread-self"), module: Self.onCPU("\(module.pid)"))
            guard let (callMedian, callTail) = module.timeCalls(Self.callsPerRound) else {
                report.add("isolation: route call", "a call failed: \(module.link.failed.map { "\($0)" } ?? "unknown")")
                return
            }
            cpu.host += Double(Self.onCPU("thread-self") - before.host)
            cpu.module += Double(Self.onCPU("\(module.pid)") - before.module)
            calls.append(callMedian)
            callTails.append(callTail)
            if let (median, _) = sleeper?.timeCalls(Self.callsPerRound) { sleeping.append(median) }
            if let unconfined { compare(module, unconfined, round: floors.count, into: &sandboxPairs) }
        }
        report.add(
            "isolation: floor, 64 bytes there and back between two processes",
            String(format: "p50 %.1f µs, p99 %.1f µs", median(floors), median(floorTails)) + "; during the rounds, " + stealSince(ticks))
        report.add(
            "isolation: GeoRoute.savedCities() in its module's own process",
            String(
                format: "p50 %.1f µs, p99 %.1f µs; p50 x%.2f of the floor (asked <= 2)", median(calls), median(callTails),
                median(calls) / median(floors)))
        if !sleeping.isEmpty {
            report.add(
                "isolation: the same call, neither side looking before it sleeps",
                String(format: "p50 %.1f µs, x%.2f of the floor", median(sleeping), median(sleeping) / median(floors)))
        }
        if !sandboxPairs.isEmpty {
            let confined = median(sandboxPairs.map(\.confined))
            let unconfined = median(sandboxPairs.map(\.unconfined))
            report.add(
                "isolation: the same call without its sandbox (\"sandbox\": \"off\")",
                String(
                    format: "p50 %.1f µs; with it x%.2f of without, batch by batch (asked <= 1.05)", unconfined,
                    median(sandboxPairs.map { $0.confined / $0.unconfined })) + String(format: "; p50 with it %.1f µs", confined))
        }
        let callsMade = Double(calls.count * (Self.callsPerRound + 500)) * 1000
        report.add(
            "isolation: on-CPU time a call, the caller's thread and the module's",
            String(format: "%.1f µs and %.1f µs", cpu.host / callsMade, cpu.module / callsMade))
        sustained(module, into: report)
        starts(config: config, data: data, into: report)
    }

    /// Calls to the sandboxed process and to the unconfined one in short batches, each pair
    /// run in the other order than the last. Which process is called first after the floor's
    /// program ran moves a median by a third on these VMs (two sandboxed processes measured
    /// one after the other differ by x1.3), so a fixed order would measure the order.
    private func compare(
        _ confined: IsolatedGeo, _ unconfined: IsolatedGeo, round: Int, into pairs: inout [(confined: Double, unconfined: Double)]
    ) {
        let batch = Self.callsPerRound / 4
        for index in 0..<4 {
            let firstConfined = (round + index) % 2 == 0
            let first = (firstConfined ? confined : unconfined).timeCalls(batch, warmUp: 100)
            let second = (firstConfined ? unconfined : confined).timeCalls(batch, warmUp: 100)
            guard let first, let second else { return }
            pairs.append(firstConfined ? (first.0, second.0) : (second.0, first.0))
        }
    }

    /// What an entry adds to run its module without a sandbox.
    static let off = #", "sandbox": "off""#

    /// 10 000 calls a second for 10 s; each process's resident memory after seconds 1, 4, 7
    /// and 10.
    private func sustained(_ module: IsolatedGeo, into report: BenchReport) {
        let perSecond = 10_000
        var residents: [(host: Int, child: Int)] = []
        var done = 0
        let began = ContinuousClock.now
        for second in 0..<10 {
            for call in 0..<perSecond {
                // Paced: each call waits for its moment in the second, so the rate is the asked one.
                let due = began + .seconds(second) + .microseconds(call * 1_000_000 / perSecond)
                if ContinuousClock.now < due { Thread.sleep(until: Date() + (due - ContinuousClock.now).timeInterval) }
                guard (try? module.proxy.savedCities()) != nil else {
                    report.add("isolation: sustained", "call \(done) failed")
                    return
                }
                done += 1
            }
            if second % 3 == 0 { residents.append((Self.resident(of: getpid()), Self.resident(of: module.pid))) }
        }
        let seconds = (ContinuousClock.now - began).timeInterval
        guard residents.count == 4 else { return }
        // Each process's resident memory after seconds 1, 4, 7 and 10: a warm-up shows in the
        // first step only, a leak in every one.
        let host = residents.map { "\($0.host / 1024)" }.joined(separator: " → ")
        let child = residents.map { "\($0.child / 1024)" }.joined(separator: " → ")
        report.add(
            "isolation: 10 000 calls/s for 10 s",
            String(format: "%.0f calls/s; resident KiB after seconds 1, 4, 7, 10: ", Double(done) / seconds)
                + "host (this bench) \(host), the module's \(child)")
    }

    /// The start of Geo in its own process against its start in the host's, and against its
    /// start in its own process without a sandbox, each a whole `modhost --only Geo modules`,
    /// interleaved.
    private func starts(config: String, data: String, into report: BenchReport) {
        let common = ["--config", config, "--data-dir", data, "--only", "Geo", "modules"]
        let off = writeConfig(["Geo"], name: "isolation-start-off", entry: Self.off)
        var inProcess: [Double] = []
        var isolated: [Double] = []
        var unconfined: [Double] = []
        for _ in 0..<max(5, rounds) {
            inProcess.append(timeProcess(buildFolder + "/modhost", common))
            isolated.append(timeProcess(buildFolder + "/modhost", ["--isolate", "Geo"] + common))
            unconfined.append(
                timeProcess(
                    buildFolder + "/modhost", ["--isolate", "Geo", "--config", off, "--data-dir", data, "--only", "Geo", "modules"]))
        }
        report.add(
            "isolation: start, Geo in its own process with its sandbox vs without (\"sandbox\": \"off\")",
            String(
                format: "%.2f ms vs %.2f ms, x%.2f (asked <= 1.2)", median(isolated) / 1e6, median(unconfined) / 1e6,
                median(isolated) / median(unconfined)))
        report.add(
            "isolation: start, Geo in its own process vs in the host's",
            String(
                format: "%.2f ms vs %.2f ms, x%.2f (asked <= 2)", median(isolated) / 1e6, median(inProcess) / 1e6,
                median(isolated) / median(inProcess)))
    }

    /// Nanoseconds `/proc/<which>/schedstat` says the thread (or a process's first thread) ran.
    static func onCPU(_ which: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(which)/schedstat", encoding: .utf8) else { return 0 }
        return text.split(separator: " ").first.flatMap { Int($0) } ?? 0
    }

    static func resident(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// FixtureIsolatedGeo in its own process, started as the host starts it, called through the
/// generated proxy.
final class IsolatedGeo {
    let process: ModuleProcess
    let link: RouteLink
    let proxy: GeoRouteProxy
    var pid: pid_t { process.pid }

    /// - Parameter look: how long each side looks for bytes before it sleeps (`nil`: the
    ///   default, ``FrameChannel/defaultLook``).
    init?(config: String, data: String, look: Duration? = nil) {
        let hello = Hello(hostVersion: "bench", sdkVersion: ModuleKitABI.sdkVersion, contracts: [("Contracts", ModuleKitABI.sdkVersion)])
        let arguments = [
            buildFolder + "/modhost", "--config", config, "--data-dir", data, "--no-crash-records", "__module-host", "FixtureIsolatedGeo",
        ]
        var environment: [String: String]?
        if let look {
            environment = ProcessInfo.processInfo.environment.merging([
                "MODHOST_LINK_LOOK_US": "\(look.components.attoseconds / 1_000_000_000_000)"
            ]) { $1 }
        }
        guard
            let process = try? ModuleProcess(
                .command(arguments), hello: hello, environment: environment,
                refusals: SandboxRefusals.watcher(module: "FixtureIsolatedGeo") { _ in })
        else { return nil }
        if let look { process.channel.lookBeforeWaiting = look }
        self.process = process
        link = RouteLink(channel: process.channel, peer: "module 'FixtureIsolatedGeo'", callLimit: .seconds(10))
        proxy = GeoRouteProxy(.route("GeoRoute", on: link))
        guard (try? RemoteObject.route("__module", on: link).call("start", RouteArguments())) != nil else { return nil }
    }

    /// The median and 99th percentile of `count` calls, in microseconds, after `warmUp` not
    /// counted.
    func timeCalls(_ count: Int, warmUp: Int = 500) -> (Double, Double)? {
        var times: [Double] = []
        times.reserveCapacity(count)
        for index in 0..<(count + warmUp) {
            let began = now()
            guard let cities = try? proxy.savedCities() else { return nil }
            let took = Double(now() - began) / 1000
            consume(cities)
            if index >= warmUp { times.append(took) }
        }
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
    }

    func end() {
        link.close()
        _ = process.end()
    }
}

extension Duration {
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
