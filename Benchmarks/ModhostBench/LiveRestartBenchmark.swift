import Foundation
import Synchronization

/// `modhost-bench live`: how long after a module's new library is put in place the open app
/// answers with the new code. The app runs FixtureLive in a process of its own; each round
/// renames the other build (FixtureLiveOne, FixtureLiveTwo) over its library and times until
/// the host says the new library runs (the new process started, the module started in it, its
/// routes moved: every call from then on is answered by the new code). The 150 ms the watcher
/// waits for a file to settle are part of the figure.
struct LiveRestartBenchmark {
    let rounds: Int

    func run(into report: BenchReport) {
        // The app may have ended before its input is closed: a write then must not end the bench.
        signal(SIGPIPE, SIG_IGN)
        let folder = NSTemporaryDirectory() + "modhost-bench-live-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = folder + "/libFixtureLive.so"
        let builds = ["FixtureLiveOne", "FixtureLiveTwo"].map { buildFolder + "/lib\($0).so" }
        do {
            try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
            chmod(folder, 0o755)
            chmod(folder + "/data", 0o700)
            try FileManager.default.copyItem(atPath: buildFolder + "/libFixtureContracts.so", toPath: folder + "/libFixtureContracts.so")
            try FileManager.default.copyItem(atPath: builds[0], toPath: library)
        } catch {
            report.add("live restart", "cannot prepare '\(folder)' (build FixtureLiveOne and FixtureLiveTwo first): \(error)")
            return
        }
        let config = folder + "/modules.json"
        let entry = #"{"name": "FixtureLive", "enabled": true, "library": "\#(library)", "isolation": "process"}"#
        let json = #"{"environment": "test", "modules": [\#(entry)]}"#
        _ = FileManager.default.createFile(atPath: config, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600])
        let app = Process()
        app.executableURL = URL(fileURLWithPath: buildFolder + "/modhost")
        app.arguments = ["--config", config]
        app.environment = ProcessInfo.processInfo.environment.merging(["MODHOST_DATA_DIR": folder + "/data"]) { $1 }
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        (app.standardInput, app.standardOutput, app.standardError) = (input, output, errors)
        let said = Mutex("")
        let shown = Mutex("")
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            said.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            shown.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        do { try app.run() } catch {
            report.add("live restart", "cannot start modhost: \(error)")
            return
        }
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("q\n".utf8))
            try? input.fileHandleForWriting.close()
            app.waitUntilExit()
        }
        guard wait(until: { shown.withLock { $0.contains("Which one?") } }) else {
            report.add("live restart", "the app did not show Home: \(said.withLock { $0 })")
            return
        }
        var times: [Double] = []
        for round in 0..<rounds {
            let next = folder + "/.next.so"
            try? FileManager.default.removeItem(atPath: next)
            guard (try? FileManager.default.copyItem(atPath: builds[(round + 1) % 2], toPath: next)) != nil else { break }
            let began = DispatchTime.now().uptimeNanoseconds
            guard rename(next, library) == 0,
                wait(until: { said.withLock { $0.components(separatedBy: "now runs its new library").count - 1 } > round })
            else {
                report.add("live restart", "the new library was not taken: \(said.withLock { $0 })")
                return
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - began))
        }
        guard !times.isEmpty else { return }
        report.add(
            "live restart: library in place → new code answering",
            String(
                format: "median %.0f ms, max %.0f ms (%d restarts, 150 ms of settling included)", median(times) / 1e6,
                (times.max() ?? 0) / 1e6, times.count))
    }

    /// Waits up to 30 s for `condition`, looking every millisecond.
    private func wait(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }
}
