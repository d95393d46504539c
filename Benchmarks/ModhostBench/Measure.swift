import Foundation
import ModuleKit

/// Monotonic nanoseconds.
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Keeps a value alive and opaque to the optimizer, so measured work is not removed.
@inline(never) @_optimize(none)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Rows of "what, median, unit, versus what" collected by the benchmarks.
final class BenchReport {
    private var rows: [(String, String)] = []

    func add(_ label: String, _ value: String) {
        rows.append((label, value))
    }

    func print() {
        let width = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            Swift.print(label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + value)
        }
    }
}

/// The folder of this executable, which holds modhost and the test libraries.
let buildFolder = ProcessLocation.executableFolder

/// Writes a modules.json with `modules` enabled, searching the build folder.
func writeConfig(_ modules: [String], name: String, entry extra: String = "") -> String {
    let entries = modules.map { #"{"name": "\#($0)", "enabled": true\#(extra)}"# }.joined(separator: ", ")
    let path = NSTemporaryDirectory() + "modhost-bench-\(name).json"
    let json = #"{"environment": "test", "searchPaths": ["\#(buildFolder)"], "modules": [\#(entries)]}"#
    // 0600: modhost refuses a modules.json that others may write.
    _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600])
    return path
}

/// Runs a program to completion with output discarded; returns wall nanoseconds. Uses
/// posix_spawn and a blocking waitpid: Foundation's Process adds tens of milliseconds of its
/// own, and polling for the end would add up to a poll interval to every figure. Memory is
/// measured in runs of its own (`peakMemory`). `environment` is added to this process's.
func timeProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return .nan }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return Double(now() - start)
}

/// Peak resident memory of one run of `executable` (bytes), measured exactly by
/// `modhost-peak` (fork and wait4); NaN when it could not be run.
func peakMemory(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> Double {
    let kilobytes = output(of: buildFolder + "/modhost-peak", [executable] + arguments, environment: environment)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    return Double(kilobytes).map { $0 * 1024 } ?? .nan
}

/// Runs a program and returns its standard output.
func output(of executable: String, _ arguments: [String], environment: [String: String] = [:]) -> String {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return ""
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

func format(milliseconds nanoseconds: Double) -> String {
    String(format: "%.2f ms", nanoseconds / 1_000_000)
}

func format(nanoseconds: Double) -> String {
    String(format: "%.1f ns", nanoseconds)
}

/// The machine's CPU time so far as `/proc/stat` counts it (all processors, in clock ticks):
/// all of it, and the part the hypervisor gave to other guests (steal). A run whose share of
/// steal is high ran on a crowded host: its figures, ratios too, swing more.
func machineTicks() -> (total: Int, steal: Int) {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
        let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return (0, 0) }
    let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    guard fields.count >= 8 else { return (0, 0) }
    return (fields.prefix(8).reduce(0, +), fields[7])
}

/// "steal 1.2 % of the machine's CPU time" between `before` and now.
func stealSince(_ before: (total: Int, steal: Int)) -> String {
    let after = machineTicks()
    let total = after.total - before.total
    guard total > 0 else { return "steal not known" }
    return String(format: "steal %.1f %% of the machine's CPU time", Double(after.steal - before.steal) * 100 / Double(total))
}
