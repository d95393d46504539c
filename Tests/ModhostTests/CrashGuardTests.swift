import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// One way a module misbehaves, and what the host must say about it now and at the next start.
struct Misbehaviour: Sendable, CustomTestStringConvertible {
    /// The module's name in modules.json.
    let module: String
    /// Extra fields of its entry (config, library, startTimeout).
    let fields: String
    /// The command line that meets the misbehaviour.
    let arguments: [String]
    /// The signal that ends the first run, or nil when it exits.
    let signal: Int32?
    /// The exit status of the first run when it exits.
    let status: Int32
    /// The line the host prints about it, if any.
    let line: String?
    /// What the reason says at the next start (before the date and after it).
    let reasonPrefix: String
    let reasonSuffix: String

    var testDescription: String { "\(module) \(fields)" }

    static func swift(_ how: String, in phase: String, signal: Int32?, status: Int32 = 1, timeout: String = "") -> Misbehaviour {
        let verb =
            how == "fatalError"
            ? "crashed the host in \(phase) (SIGILL)"
            : how == "exit" ? "called exit(0) in \(phase)" : "has not returned from \(phase) after 1 s"
        let reason =
            how == "fatalError"
            ? ("crashed the host on ", " in \(phase) (SIGILL); 'modhost --retry FixtureMisbehaves' tries it again")
            : how == "exit"
                ? ("called exit(0) in \(phase) on ", "; 'modhost --retry FixtureMisbehaves' tries it again")
                : ("did not return from \(phase) within 1 s on ", "; 'modhost --retry FixtureMisbehaves' tries it again")
        return Misbehaviour(
            module: "FixtureMisbehaves", fields: #""config": {"in": "\#(phase)", "how": "\#(how)"}\#(timeout)"#,
            arguments: phase == "command" ? ["fixturemisbehaves", "run"] : phase == "screen" ? [] : ["modules"], signal: signal,
            status: status,
            line:
                "modhost: error: module 'FixtureMisbehaves' \(verb); it is skipped from the next start; 'modhost --retry FixtureMisbehaves' tries it again",
            reasonPrefix: reason.0, reasonSuffix: reason.1)
    }

    static func hostile(_ name: String, signal: Int32?, status: Int32 = 1, verb: String?, reason: (String, String), timeout: String = "")
        -> Misbehaviour
    {
        Misbehaviour(
            module: name, fields: #""library": "\#(name)"\#(timeout)"#, arguments: ["modules"], signal: signal, status: status,
            line: verb.map {
                "modhost: error: module '\(name)' \($0); it is skipped from the next start; 'modhost --retry \(name)' tries it again"
            },
            reasonPrefix: reason.0, reasonSuffix: reason.1 + "; 'modhost --retry \(name)' tries it again")
    }

    static let all: [Misbehaviour] = [
        .hostile(
            "HostileAbortInConstructor", signal: SIGABRT, verb: "crashed the host in load (SIGABRT)",
            reason: ("crashed the host on ", " in load (SIGABRT)")),
        .hostile(
            "HostileSegfaultInEntry", signal: SIGSEGV, verb: "crashed the host in load (SIGSEGV)",
            reason: ("crashed the host on ", " in load (SIGSEGV)")),
        .hostile(
            "HostileExitInConstructor", signal: nil, verb: "called exit(0) in load", reason: ("called exit(0) in load on ", "")),
        .hostile(
            "HostileQuietExitInConstructor", signal: nil, status: 3, verb: nil,
            reason: ("ended the host without a word in load twice in a row, last on ", " (_exit or SIGKILL)")),
        .hostile(
            "HostileSleepsInConstructor", signal: nil, verb: "has not returned from load after 1 s",
            reason: ("did not return from load within 1 s on ", ""), timeout: #", "startTimeout": 1"#),
        .swift("fatalError", in: "register", signal: SIGILL),
        .swift("fatalError", in: "start", signal: SIGILL),
        .swift("fatalError", in: "command", signal: SIGILL),
        .swift("fatalError", in: "stop", signal: SIGILL),
        .swift("fatalError", in: "screen", signal: SIGILL),
        .swift("exit", in: "start", signal: nil),
        .swift("exit", in: "command", signal: nil),
        .swift("block", in: "start", signal: nil, timeout: #", "startTimeout": 1"#),
        .swift("block", in: "stop", signal: nil, timeout: #", "startTimeout": 1"#),
    ]
}

@Suite struct CrashGuardTests {
    /// A world with Geo (whose data must survive) and `misbehaviour`'s module, whose hostile
    /// library is armed in a private folder.
    func world(_ misbehaviour: Misbehaviour) throws -> TestHost {
        var fields = misbehaviour.fields
        if misbehaviour.module.hasPrefix("Hostile") {
            fields = fields.replacingOccurrences(
                of: #""library": "\#(misbehaviour.module)""#,
                with: #""library": "\#(try HostileLibrary.armedCopy(of: misbehaviour.module))""#)
        }
        return try TestHost(entries: [("Geo", ""), (misbehaviour.module, fields)])
    }

    @Test(arguments: Misbehaviour.all)
    func aModuleThatCrashesExitsOrHangsIsNamedThenSkippedWhileOthersKeepTheirData(_ misbehaviour: Misbehaviour) throws {
        let host = try world(misbehaviour)
        let data = host.dataFolder
        let saved = try host.run("--disable", misbehaviour.module, "geo", "add", "--country", "FR", "--city", "Paris")
        #expect(saved.succeeded)

        // The app (no arguments) opens the module's Home entry: Home lists Places, then it.
        let first = try host.run(arguments: misbehaviour.arguments, input: "2\n")
        if let signal = misbehaviour.signal {
            #expect(first.signal == signal, "the crash proceeds as it would have")
        } else {
            #expect(first.signal == nil && first.status == misbehaviour.status, "never 0: \(first.stderr)")
        }
        if let line = misbehaviour.line, misbehaviour.signal != nil {
            // A crash also names the file its backtrace went to (mode 0600, in the data folder).
            let named = first.errorLines.first { $0.hasPrefix(line + "; its backtrace is in '\(data)/.modhost/backtrace-") }
            #expect(named != nil, "\(first.stderr)")
            let file = String(named?.split(separator: "'").last ?? "")
            var status = stat()
            #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600, "\(file)")
            #expect(((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").hasPrefix("modhost crashed: SIG"))
        } else if let line = misbehaviour.line {
            #expect(first.errorLines.contains(line), "\(first.stderr)")
        } else {
            #expect(!first.stderr.contains("modhost: error: module"))
            // It vanished without a word: only a second vanishing in a row skips it.
            let again = try host.run(arguments: misbehaviour.arguments)
            #expect(again.status == misbehaviour.status)
            #expect(
                again.stderr.hasPrefix(
                    "modhost: warn: the last run ended without a word while module '\(misbehaviour.module)' ran load (on "),
                "\(again.stderr)")
        }

        // The next start: the module named and skipped with the reason, Geo and its data intact.
        let report = try #require(try host.module(misbehaviour.module))
        #expect(report.state == "failed")
        let reason = report.reason ?? ""
        #expect(reason.hasPrefix(misbehaviour.reasonPrefix) && reason.hasSuffix(misbehaviour.reasonSuffix), "\(reason)")
        #expect(try host.module("Geo")?.state == "active")
        #expect(host.crashRecords.contains(misbehaviour.module))
        let list = try host.run("geo", "list")
        #expect(list.succeeded)
        #expect(list.stdout.contains("Paris"), "data stored before the crash is intact")
    }

    @Test func sigkillInsideAModuleWarnsOnceAndSkipsItTheSecondTimeInARowButNotAtAPrompt() throws {
        let host = try TestHost(entries: [("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}"#)])
        let data = host.data
        // A kill from outside looks like a module's _exit: the first is only said.
        var stderr: [String] = []
        for _ in 0..<2 {
            let left = markersLeftBusy(in: data)
            let process = try host.start(arguments: ["modules"])
            try waitForMarker(in: data, containing: "FixtureMisbehaves\tstart\t", of: process.processIdentifier, ignoring: left)
            process.send(SIGKILL)
            stderr.append(try process.wait().stderr)
        }
        #expect(stderr[0] == "")
        #expect(
            stderr[1].hasPrefix("modhost: warn: the last run ended without a word while module 'FixtureMisbehaves' ran start (on "),
            "\(stderr[1])")
        #expect(stderr[1].hasSuffix(": killed from outside, or _exit); if it happens again there, FixtureMisbehaves is skipped\n"))
        let next = try host.run("modules")
        #expect(next.stdout.contains("reason: ended the host without a word in start twice in a row, last on "), "\(next.stdout)")
        #expect(next.stdout.contains(" (_exit or SIGKILL); 'modhost --retry FixtureMisbehaves' tries it again"))

        // Killed while Geo's screen waits for a person: nobody's fault, nothing recorded.
        let app = try host.app()
        try app.choose("Places")
        try app.waitForInput()
        try waitForMarker(in: data, containing: "idle")
        app.send(signal: SIGKILL)
        #expect(try app.waitForExit().signal == SIGKILL)
        let after = try host.run("geo", "list")
        #expect(after.succeeded, "\(after)")
        #expect(!after.stderr.contains("crash marker"), "an idle marker is no record to warn of: \(after.stderr)")
    }

    @Test func aVanishingIsForgottenOnceTheModuleComesThroughThatPhase() throws {
        // One world whose modules.json is rewritten between runs: the module blocking in its
        // command, then behaving, over one data folder.
        let blocking = [
            TestHost.Module.library(TestEnvironment.library("FixtureMisbehaves"), config: #"{"in": "command", "how": "block"}"#)
        ]
        let calm = [TestHost.Module.library(TestEnvironment.library("FixtureMisbehaves"))]
        let host = try TestHost(modules: calm, executable: TestEnvironment.modhost)
        let data = host.data
        func killDuringCommand() throws {
            try host.write(blocking)
            let process = try host.start(arguments: ["fixturemisbehaves", "run"])
            try waitForMarker(in: data, containing: "FixtureMisbehaves\tcommand\t", of: process.processIdentifier)
            process.send(SIGKILL)
            _ = try process.wait()
            try host.write(calm)
        }
        try killDuringCommand()
        // Runs that never reach the command keep the warning; one that comes through it clears it.
        #expect(try host.run("modules").stderr.contains("modhost: warn: "))
        #expect(try host.run("modules").stderr == "")
        let passed = try host.run("fixturemisbehaves", "run")
        #expect(passed.stdout == "fine\n")
        #expect(host.crashRecords == "")
        // So the next kill there is a first one again.
        try killDuringCommand()
        let after = try host.run("modules")
        #expect(after.stdout.contains("FixtureMisbehaves active"), "\(after.stdout)")
    }

    /// A child the module forked (as a daemon would) outlives the host it crashed: it holds no
    /// copy of the host's marker, so the next start, while the child still runs, reads the
    /// crash and skips the module.
    @Test func aCrashIsRecordedThoughAChildTheModuleForkedOutlivesTheHost() throws {
        let host = try TestHost(entries: [("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "forkThenRaise"}"#)])
        #expect(try host.run("modules").signaled)
        let next = try host.run("modules")
        #expect(next.stdout.contains(" in start (SIGSEGV); 'modhost --retry FixtureMisbehaves' tries it again"), "\(next.stdout)")
    }

    /// Each run takes the first marker slot no running host holds and leaves it idle: two hosts
    /// at once use two, later runs reuse them, and no file is made or removed per run.
    @Test func runsShareTheMarkerSlotsAndLeaveThemIdle() throws {
        let host = try TestHost(entries: [
            ("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}, "startTimeout": 600"#),
        ])
        let data = host.data
        let blocked = try host.start(arguments: ["modules"])
        try waitForMarker(in: data, containing: "FixtureMisbehaves\tstart\t", of: blocked.processIdentifier)
        let beside = try host.run("--only", "Geo", "modules")
        #expect(beside.succeeded, "\(beside)")
        var markers = MarkerFiles.all(in: data)
        #expect(markers.map { ($0.path as NSString).lastPathComponent } == ["marker-0", "marker-1"])
        #expect(MarkerFiles.holder(of: data + "/.modhost/marker-0") == blocked.processIdentifier)
        #expect(markers.last?.text == "idle" && MarkerFiles.holder(of: data + "/.modhost/marker-1") == nil)
        // Ended by a signal from outside: its marker is left idle, not blamed.
        blocked.send(SIGTERM)
        _ = try blocked.wait()
        for _ in 0..<3 { #expect(try host.run("--only", "Geo", "modules").succeeded) }
        markers = MarkerFiles.all(in: data)
        #expect(markers.map { ($0.path as NSString).lastPathComponent } == ["marker-0", "marker-1"])
        #expect(markers.allSatisfy { $0.text == "idle" }, "\(markers)")
        #expect(host.crashRecords == "")
    }

    /// Waits until a marker (the one process `pid` holds, if given) holds `text`, and is none of
    /// the texts `ignoring` lists.
    func waitForMarker(in data: String, containing text: String, of pid: Int32? = nil, ignoring: Set<String> = []) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            for marker in MarkerFiles.all(in: data) where marker.text.contains(text) && !ignoring.contains(marker.text) {
                if pid == nil || MarkerFiles.holder(of: marker.path) == pid { return }
            }
            usleep(20_000)
        }
        Issue.record("no marker said '\(text)'")
    }

    /// The texts of the markers ended processes left busy. A start holds such a slot (its lock)
    /// while it turns it into a record, so that slot, still saying what the ended process ran,
    /// is held by the new process for a moment: it must not be taken for the new process's own.
    /// Returned once the clock is past the second they name, so that the new process's own
    /// record (which names its second) differs from them.
    func markersLeftBusy(in data: String) -> Set<String> {
        let texts = Set(MarkerFiles.busy(in: data).map(\.text))
        let seconds = texts.compactMap { text in text.split(separator: "\t").dropFirst(2).first.flatMap { Int($0) } }
        while let latest = seconds.max(), Int(Date().timeIntervalSince1970) <= latest { usleep(50_000) }
        return texts
    }

    @Test func dependentsOfACrashedModuleAreSkippedWithTheChain() throws {
        let host = try TestHost(entries: [
            ("FixtureNeedsMisbehaviour", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "fatalError"}"#),
        ])
        #expect(try host.run("modules").signaled)
        let next = try host.run("modules")
        let lines = next.stdout.split(separator: "\n").map(String.init)
        let reason = try #require(lines.first { $0.hasPrefix("    reason: requires 'MisbehaviourRoute'") })
        #expect(reason.hasPrefix("    reason: requires 'MisbehaviourRoute' from 'FixtureMisbehaves', which failed: crashed the host on "))
        #expect(reason.hasSuffix(" in start (SIGILL); 'modhost --retry FixtureMisbehaves' tries it again"))
    }

    @Test func aRetryAndAChangedLibraryBothTryTheModuleAgain() throws {
        let misbehaviour = Misbehaviour.all[0]
        let host = try world(misbehaviour)
        let config = host.config
        #expect(try host.run("modules").signaled)
        #expect(try host.run("modules").succeeded, "skipped")
        #expect(try host.run("--retry", misbehaviour.module, "modules").signaled, "--retry opens it again, and it crashes again")
        #expect(try host.run("modules").succeeded, "recorded again")
        #expect(try host.run("--retry", "all", "modules").signaled)

        // The author ships a "fix": the library file changes, so the host tries it by itself.
        let library = try #require(
            (try String(contentsOfFile: config, encoding: .utf8)).split(separator: "\"").first {
                $0.hasSuffix("libHostileAbortInConstructor.so")
            })
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: String(library))
        let changed = try host.run("--log-level", "info", "modules")
        #expect(changed.signaled, "the changed library is tried again")
        #expect(
            changed.errorLines.contains(
                "modhost: info: module 'HostileAbortInConstructor': its library changed since it crashed the host; trying it again"))
    }

    @Test func checkRunsLibrariesInAChildProcessSoNothingTakesItDown() throws {
        var entries: [(String, String)] = [("Geo", "")]
        for name in ["HostileAbortInConstructor", "HostileExitInConstructor", "HostileSleepsInConstructor", "HostileSegfaultInEntry"] {
            entries.append((name, #""library": "\#(try HostileLibrary.armedCopy(of: name))", "startTimeout": 1"#))
        }
        let host = try TestHost(entries: entries)
        let result = try host.run("check")
        #expect(!result.signaled)
        #expect(result.status == 1, "a library that calls exit(0) must not make check pass")
        #expect(
            result.errorLines == [
                "modhost: error: '\(host.config)': modules[1] ('HostileAbortInConstructor'): crashes the host when it is loaded (SIGABRT, checked in a child process)",
                "modhost: error: '\(host.config)': modules[2] ('HostileExitInConstructor'): calls exit(0) when it is loaded (checked in a child process); it would end the host",
                "modhost: error: '\(host.config)': modules[3] ('HostileSleepsInConstructor'): did not finish loading within 1 s (checked in a child process); it would hang the host",
                "modhost: error: '\(host.config)': modules[4] ('HostileSegfaultInEntry'): crashes the host when it is loaded (SIGSEGV, checked in a child process)",
            ])
        #expect(result.stdout == "")
    }

    @Test func onlyAndHelpNeverOpenAnUnselectedLibrary() throws {
        let hostile = try HostileLibrary.armedCopy(of: "HostileAbortInConstructor")
        let host = try TestHost(entries: [("FixtureProvider", ""), ("HostileAbortInConstructor", #""library": "\#(hostile)""#)])
        let greet = try host.run("--only", "FixtureProvider", "fixtureprovider", "greet", "Ann")
        #expect(greet.succeeded)
        #expect(greet.stdout == "Hello, Ann!\n")
        let help = try host.run("--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("  hostileabortinconstructor  active 0.0.1"), "its version is padded by the arming")
    }

    @Test func bisectNamesTheModuleBehindAFailure() throws {
        let host = try TestHost(entries: [
            ("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "fatalError"}"#),
            ("FixtureOptional", ""),
        ])
        // The culprit crashed once already and is skipped: `modules` succeeds now...
        #expect(try host.run("modules").signaled)
        #expect(try host.run("modules").succeeded)
        let recorded = host.crashRecords
        // ...but bisect's tries ignore the record, so they still meet the crash and find it.
        let result = try host.run("bisect", "--", "modules")
        #expect(result.status == 1)
        #expect(
            result.outputLines.prefix(2) == [
                "modhost bisect: trying 'modhost modules' with every enabled module (4)",
                "modhost bisect: it fails with 'FixtureMisbehaves' and the modules it requires (crash, SIGILL); without it it succeeds",
            ], "\(result.stdout)")
        #expect(host.crashRecords == recorded, "bisect's tries record nothing")
        let fine = try host.run("--disable", "FixtureMisbehaves", "bisect", "--", "modules")
        #expect(fine.succeeded)
        #expect(fine.stdout.hasSuffix("modhost bisect: it succeeds with every enabled module; nothing to find\n"))
        // Off in the file and on for this run: every try keeps the run's choice, and the one
        // without any module does not ask for it both enabled and disabled.
        let off = try TestHost(entries: [
            ("FixtureProvider", ""), ("FixtureMisbehaves", #""enabled": false, "config": {"in": "start", "how": "fatalError"}"#),
        ])
        let enabled = try off.run("--enable", "FixtureMisbehaves", "bisect", "--", "modules")
        #expect(enabled.stdout.contains("it fails with 'FixtureMisbehaves' and the modules it requires"), "\(enabled.stdout)")
    }
}

/// `--help` and `check` read the plan only: no module starts and nothing is written. The data
/// folder must not exist before them, and a ModuleHostTesting world makes one: not a world.
@Suite struct ReadOnlyCommandsTests {
    @Test(arguments: [["--help"], ["check"]])
    func theyCreateNothingInTheDataFolder(arguments: [String]) throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Auth", ""), ("Geo", ""), ("FixtureProvider", "")]))
        let data = try TestEnvironment.temporaryFolder() + "/data"
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config] + arguments, environment: ["MODHOST_DATA_DIR": data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "nothing was created in '\(data)'")
    }
}
