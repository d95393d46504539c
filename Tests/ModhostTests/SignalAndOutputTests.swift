import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The signal path and standard output, with real signals, a real pseudo-terminal and real
/// broken outputs.
@Suite struct SignalAndOutputTests {
    /// The module would block its start for ten minutes: the process ends by the signal (its
    /// status says so), not by the watchdog, and long before the module's time limit.
    @Test func sigtermWhileAModuleBlocksInStartEndsTheProcessByTheSignal() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}, "startTimeout": 600"#)]))
        let data = try TestEnvironment.temporaryFolder()
        let process = try ChildProcess.start(
            TestEnvironment.modhost, ["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        // The guard's marker says when the module is inside start.
        let deadline = Date().addingTimeInterval(60)
        var inStart = false
        while !inStart && Date() < deadline {
            inStart = MarkerFiles.busy(in: data).contains { $0.text.contains("\tstart\t") }
            usleep(20_000)
        }
        #expect(inStart)
        process.send(SIGTERM)
        let result = try process.wait(deadline: 120)
        #expect(!result.signaled && result.status == 128 + SIGTERM)
        // An interrupted start is the person's doing, not the module's: nothing is recorded.
        #expect(!FileManager.default.fileExists(atPath: data + "/.modhost/crashes"))
        let next = try modhost(["--config", config, "--disable", "FixtureMisbehaves", "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(next.stdout.contains("disabled by --disable"))
    }

    @Test func sigintWhileAModuleBlocksInStopStillEndsTheProcess() throws {
        // The signal path asks modules to stop; one that never returns cannot hold the process.
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "stop", "how": "block"}, "startTimeout": 600"#)]))
        let process = try ChildProcess.start(TestEnvironment.modhost, ["--config", config])
        try process.waitForOutput(containing: "Which one?")
        process.send(SIGINT)
        let result = try process.wait(deadline: 10)
        #expect(!result.signaled && result.status == 128 + SIGINT)
    }

    @Test func ctrlCAtAHiddenPasswordPromptRestoresEcho() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Auth", "")]))
        // On a pseudo-terminal (TerminalProcess), a log-in runs in the foreground; a watcher
        // says when echo is off (the password prompt), and the test then types ^C, which the
        // terminal turns into SIGINT. The shell traps SIGINT so that it lives to report.
        let command = """
            trap : INT
            (for i in $(seq 600); do stty -a </dev/tty | grep -q -- '-echo ' && { echo ECHO-OFF; break; }; sleep 0.1; done) &
            \(TestEnvironment.modhost) --config \(config) auth login --email ann@example.com
            echo "status=$?"
            stty -a </dev/tty | tr ' ' '\\n' | grep -x -e echo -e -echo
            """
        let terminal = try TerminalProcess.start(command, environment: ["MODHOST_DATA_DIR": data])
        try terminal.waitFor("ECHO-OFF", timeout: .seconds(120))
        terminal.press(.control("c"))
        _ = try terminal.waitForExit(timeout: .seconds(120))
        let lines = terminal.screen.transcript.split(separator: "\n").map(String.init)
        #expect(lines.contains("status=130"), "\(terminal.screen.transcript)")
        #expect(lines.last == "echo", "echo is back on: \(terminal.screen.transcript)")
    }

    @Test func ctrlCAtTheAppsPromptEndsTheLineBeforeTheShellsPrompt() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        // The app in the foreground of a pseudo-terminal; ^C typed once it shows its prompt.
        let command = """
            trap : INT
            \(TestEnvironment.modhost) --config \(config)
            echo "status=$?"
            """
        let terminal = try TerminalProcess.start(command, environment: ["MODHOST_DATA_DIR": data, "NO_COLOR": "1"])
        try terminal.waitFor("Which one?", timeout: .seconds(120))
        terminal.press(.control("c"))
        _ = try terminal.waitForExit(timeout: .seconds(120))
        let lines = terminal.screen.transcript.split(separator: "\n").map(String.init)
        // The prompt and the ^C the terminal echoed, then a line break, then the shell's next
        // output on a line of its own.
        #expect(lines.suffix(2) == ["Which one? ^C", "status=130"], "\(terminal.screen.transcript)")
    }

    @Test func aBackgroundJobOfAScriptKeepsIgnoringSIGINT() throws {
        // sh(1) starts `modhost … &` with SIGINT ignored, so that a Ctrl-C meant for the
        // script's foreground leaves it running; SIGTERM still ends it.
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}, "startTimeout": 600"#)]))
        let data = try TestEnvironment.temporaryFolder()
        let command = """
            \(TestEnvironment.modhost) --config \(config) modules & pid=$!
            for i in $(seq 600); do grep -qs "$(printf '\\tstart\\t')" \(data)/.modhost/marker-* && break; sleep 0.1; done
            kill -INT $pid; sleep 1
            kill -0 $pid && echo "alive after SIGINT"
            kill -TERM $pid; wait $pid; echo "status=$?"
            """
        let result = try ChildProcess.run("/bin/sh", ["-c", command], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.stdout == "alive after SIGINT\nstatus=\(128 + SIGTERM)\n", "\(result.stdout)\(result.stderr)")
    }

    @Test func aFullStandardOutputIsAnErrorNotATrap() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", "")]))
        for arguments in [["--help"], ["--config", config, "modules"], ["--config", config, "fixtureprovider", "greet", "Ann"]] {
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let result = try ChildProcess.run("/bin/sh", ["-c", "\(TestEnvironment.modhost) \(quoted) > /dev/full"])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "modhost: error: cannot write to standard output: No space left on device\n", "\(arguments)")
        }
    }

    @Test func aClosedPipeEndsQuietly() throws {
        // The reader is gone before modhost writes: like `| head -1` on a long output.
        let result = try ChildProcess.run(
            "/bin/bash", ["-c", "\(TestEnvironment.modhost) --help | (exec 0<&-; sleep 0); echo ${PIPESTATUS[0]}"])
        let status = Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect([0, 1, 128 + SIGPIPE].contains(status), "as Unix tools do: \(status)")
        #expect(result.stderr == "", "no trap, no message")
    }
}
