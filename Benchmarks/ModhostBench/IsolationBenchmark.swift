import Foundation

/// `modhost-bench isolation`: the floor a call into a module in a process of its own is set
/// against — `modhost-socket-floor`'s round trip of 64 bytes over a socketpair between two
/// processes (C, nothing of the host), median over the rounds of each run's median and 99th
/// percentile. On these 2-core VMs the figure swings with how busy the machine is (a halted
/// vCPU's wake-up dominates an idle one), so only a ratio taken in the same run compares.
struct IsolationBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        var medians: [Double] = []
        var tails: [Double] = []
        for _ in 0..<max(1, rounds / 4) {
            let words = output(of: buildFolder + "/modhost-socket-floor", ["20000"]).split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard words.count == 4, let median = Double(words[1]), let tail = Double(words[3]) else {
                report.add("isolation: floor", "modhost-socket-floor did not run (build it in this configuration first)")
                return
            }
            medians.append(median)
            tails.append(tail)
        }
        report.add(
            "isolation: floor, 64 bytes there and back between two processes",
            String(format: "p50 %.1f µs, p99 %.1f µs", median(medians), median(tails)))
    }
}
