import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Every child the host starts is its own: it runs the binary that is running, whatever
/// happened on disk since, and nothing a library's constructor starts below it outlives it or
/// stops it. Each case with the real thing: C libraries that fork a daemon or stop their
/// parent, a binary replaced and then deleted under the running app.
@Suite struct ChildrenAreTheHostsOwnTests {
    /// The processes of `host`'s world whose command line holds `marker` (a probe's children
    /// keep its command line: `__probe`).
    static func left(in host: TestHost, _ marker: String = "__probe") -> [String] {
        CheckInTheAppTests.processes(in: host).filter { $0.contains(marker) }
    }

    static func daemonWorld() throws -> (TestHost, evidence: String) {
        let evidence = try TestEnvironment.temporaryFolder() + "/daemons"
        let library = try HostileLibrary.armedCopy(of: "HostileDaemonInConstructor")
        let host = try TestHost(
            entries: [("Settings", ""), ("HostileDaemonInConstructor", #""library": "\#(library)", "startTimeout": 5"#)], language: "en",
            environment: ["MODHOST_TEST_EVIDENCE": evidence])
        return (host, evidence)
    }

    /// The daemons the library said it started, by pid, that still run (as a probe's: a
    /// reused pid is another program).
    static func running(_ evidence: String) -> [Int32] {
        let text = (try? String(contentsOfFile: evidence, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { Int32($0) }.filter { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) }
            return command?.contains("__probe") == true
        }
    }

    @Test func checkEndsTheDaemonALibrarysConstructorStarted() throws {
        let (host, evidence) = try Self.daemonWorld()
        let check = try host.run("check")
        #expect(!check.signaled, "\(check)")
        #expect(FileManager.default.fileExists(atPath: evidence), "the daemon really started")
        #expect(Self.running(evidence).isEmpty, "no daemon left after check")
        #expect(Self.left(in: host).isEmpty, "\(Self.left(in: host))")
    }

    @Test func checkFromTheAppEndsItToo() throws {
        let (host, evidence) = try Self.daemonWorld()
        // Home: 1 Settings; c Check; 0 Back; q.
        let app = try host.run(arguments: [], input: "1\nc\n0\nq\n")
        #expect(app.succeeded, "\(app)")
        #expect(app.stdout.contains("What 'modhost check' says"), "\(app.stdout)")
        #expect(FileManager.default.fileExists(atPath: evidence))
        #expect(Self.running(evidence).isEmpty)
        #expect(Self.left(in: host).isEmpty, "\(Self.left(in: host))")
    }

    /// SIGTERM (or SIGINT) to `check` while a probe runs: the probe is ended and the probe's
    /// temporary data folder removed before check ends.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalToCheckEndsItsProbeAndRemovesItsFolders(signal: Int32) throws {
        let temporary = try TestEnvironment.temporaryFolder()
        let host = try TestHost(
            entries: [("FixtureMisbehaves", #""startTimeout": 60, "config": {"in": "checkResources", "how": "block"}"#)],
            language: "en", environment: ["TMPDIR": temporary])
        let check = try host.start(arguments: ["check"])
        try CheckInTheAppTests.waitForProbe(of: host)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).contains { $0.hasPrefix("modhost-probe-data-") })
        check.send(signal)
        let ended = try check.wait(timeout: .seconds(30))
        #expect(ended.status == 128 + signal, "\(ended)")
        #expect(Self.left(in: host).isEmpty, "\(Self.left(in: host))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("modhost-probe-data-") }
        #expect(folders.isEmpty, "\(folders)")
    }

    /// The library's constructor sends SIGSTOP to the process above the probe: refused (the
    /// probe can signal nothing outside itself), so check ends, the library named for what
    /// it lacks, and so does the app's Check.
    @Test func aLibraryThatStopsItsParentStopsNoCheck() throws {
        let library = try HostileLibrary.armedCopy(of: "HostileStopsItsParent")
        let host = try TestHost(
            entries: [("Settings", ""), ("HostileStopsItsParent", #""library": "\#(library)", "startTimeout": 2"#)], language: "en")
        let check = try host.run(arguments: ["check"], timeout: .seconds(60))
        #expect(check.status == 1, "\(check)")
        #expect(check.stderr.contains("('HostileStopsItsParent')"), "named: \(check.stderr)")
        let app = try host.run(arguments: [], input: "1\nc\n0\nq\n", timeout: .seconds(90))
        #expect(app.succeeded, "\(app)")
        #expect(app.stdout.contains("HostileStopsItsParent"), "\(app.stdout)")
        #expect(Self.left(in: host).isEmpty)
    }

    /// A copy of the install whose `modhost` is renamed and replaced by another program while
    /// the app runs, then deleted: Check still checks with the build that runs.
    @Test func checkRunsTheRunningBuildWhenTheFileIsReplacedOrDeleted() throws {
        let folder = try TestEnvironment.temporaryFolder() + "/opt/modhost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let parts = [
            "modhost", "libModuleKit.so", "libContracts.so", "libSettings.so", "ModuleHost_HostModel.resources",
            "Settings_SettingsFeature.resources",
        ]
        for name in parts {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: folder + "/" + name)
        }
        try Data(#"{"modules": [{"name": "Settings", "enabled": true}]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/modules.json"))
        let data = try TestEnvironment.temporaryFolder()
        chmod(data, 0o700)
        let app = try RunningProgram(
            [folder + "/modhost", "--config", folder + "/modules.json"],
            environment: ["MODHOST_DATA_DIR": data, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        app.write("1\n")
        try app.waitForOutput(containing: "c Check")
        // Renamed away, and another program put in its place.
        #expect(rename(folder + "/modhost", folder + "/modhost.old") == 0)
        try Data("#!/bin/sh\necho IMPOSTOR\n".utf8).write(to: URL(fileURLWithPath: folder + "/modhost"))
        chmod(folder + "/modhost", 0o755)
        app.write("c\n")
        try app.waitForOutput(containing: "is valid: 1 module ready")
        // Deleted altogether.
        try FileManager.default.removeItem(atPath: folder + "/modhost")
        try FileManager.default.removeItem(atPath: folder + "/modhost.old")
        app.write("c\n")
        let deadline = ContinuousClock.now + .seconds(60)
        while app.stdout.components(separatedBy: "is valid: 1 module ready").count < 3, ContinuousClock.now < deadline { usleep(10_000) }
        app.write("0\nq\n")
        let ended = try app.wait()
        #expect(ended.succeeded, "\(ended)")
        #expect(ended.stdout.components(separatedBy: "is valid: 1 module ready").count == 3, "checked twice: \(ended.stdout)")
        #expect(!ended.stdout.contains("IMPOSTOR") && !ended.stdout.contains("could not run"), "\(ended.stdout)")
    }
}
