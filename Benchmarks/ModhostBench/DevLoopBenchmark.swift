import Foundation

/// The module author's loop, on a package `modhost new` writes (run it by name: `dev`; it
/// needs `swift` on PATH and takes a minute):
///
/// - a cold `swift build` of the new package (the kit and the module), once;
/// - one-line edit → `modhost dev` has rebuilt and run the command again, per round;
/// - beside it, the same edit followed by a bare `swift build` and `modhost notes hello`
///   (the loop by hand): the baseline of the ratio.
struct DevLoopBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        let folder = NSTemporaryDirectory() + "modhost-bench-dev-\(getpid())"
        let package = folder + "/Notes"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let modhost = buildFolder + "/modhost"
        guard timeProcess(modhost, ["new", "Notes", "--output", package]).isFinite else {
            report.add("dev: modhost new", "failed")
            return
        }
        let config = writeConfig(["Settings"], name: "dev")
        let cold = timeProcess("/usr/bin/env", ["swift", "build", "--package-path", package])
        report.add("dev: cold swift build of a new module", format(milliseconds: cold))

        let source = package + "/Sources/Notes/NotesModule.swift"
        let original = (try? String(contentsOfFile: source, encoding: .utf8)) ?? ""
        func edit(_ round: String) {
            let line = "context.ui.print(context.strings.format(.greeting, who))"
            let text = original.replacingOccurrences(of: line, with: #"context.ui.print("Round \#(round), " + who + "!")"#)
            try? Data(text.utf8).write(to: URL(fileURLWithPath: source))
        }
        let dev = DevProcess(modhost, ["--config", config, "dev", package, "--", "notes", "hello", "Ada"])
        guard dev.waitFor("Hello, Ada!\n", seconds: 600) else {
            report.add("dev: modhost dev", "did not run the command")
            return
        }
        var loop: [Double] = []
        var byHand: [Double] = []
        for round in 0..<rounds {
            let start = now()
            edit("d\(round)")
            guard dev.waitFor("Round d\(round), Ada!\n", seconds: 120) else { break }
            loop.append(Double(now() - start))
            // The baseline: the same kind of edit, then build and run by hand.
            let handStart = now()
            edit("h\(round)")
            _ = timeProcess("/usr/bin/env", ["swift", "build", "--package-path", package])
            _ = timeProcess(modhost, ["--config", config, "--module", package + "/.build/debug/libNotes.so", "notes", "hello", "Ada"])
            byHand.append(Double(now() - handStart))
            // Let dev see (and rebuild) the hand edit before the next round starts.
            _ = dev.waitFor("Round h\(round), Ada!\n", seconds: 120)
        }
        dev.stop()
        guard !loop.isEmpty else {
            report.add("dev: edit → running again", "no round finished")
            return
        }
        report.add("dev: edit → running again (modhost dev)", format(milliseconds: median(loop)))
        report.add(
            "dev: edit, swift build, modhost (by hand)",
            format(milliseconds: median(byHand)) + String(format: "  (modhost dev is x%.2f)", median(loop) / median(byHand)))
    }
}

/// `modhost dev` as a child, its standard output collected as it comes.
private final class DevProcess: @unchecked Sendable {
    // `output` is only touched under `lock`.
    private let process = Process()
    private let pipe = Pipe()
    private let lock = NSLock()
    private var output = ""

    init(_ executable: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try? process.run()
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.lock()
                output += String(decoding: chunk, as: UTF8.self)
                lock.unlock()
            }
        }
    }

    /// Waits until the output holds `text`; false after `seconds`.
    func waitFor(_ text: String, seconds: Double) -> Bool {
        let limit = Date().addingTimeInterval(seconds)
        while Date() < limit {
            lock.lock()
            let seen = output.contains(text)
            lock.unlock()
            if seen { return true }
            usleep(5_000)
        }
        return false
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
