import Foundation
import TestSupport
import Testing

/// The signal path and standard output, with real signals, a real pseudo-terminal and real
/// broken outputs.
@Suite struct SignalAndOutputTests {
    @Test func sigtermWhileAModuleBlocksInStartEndsTheProcessWithinTwoSeconds() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}"#)]))
        let data = try TestEnvironment.temporaryFolder()
        let process = try ChildProcess.start(
            TestEnvironment.modhost, ["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        // The guard's marker says when the module is inside start.
        let deadline = Date().addingTimeInterval(60)
        var inStart = false
        while !inStart && Date() < deadline {
            let markers = (try? FileManager.default.contentsOfDirectory(atPath: data + "/.modhost")) ?? []
            inStart = markers.contains { name in
                name.hasPrefix("running-")
                    && ((try? String(contentsOfFile: data + "/.modhost/" + name, encoding: .utf8)) ?? "").contains("\tstart\t")
            }
            usleep(20_000)
        }
        #expect(inStart)
        let sent = Date()
        process.send(SIGTERM)
        let result = try process.wait(deadline: 2)
        #expect(Date().timeIntervalSince(sent) < 2)
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

    @Test func sigintAtAHiddenPasswordPromptRestoresEcho() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Auth", "")]))
        // On the pseudo-terminal script(1) makes: start a log-in, wait until echo is off (the
        // password prompt), interrupt it, then read the terminal's settings.
        let command = """
            \(TestEnvironment.modhost) --config \(config) auth login --email ann@example.com </dev/tty & pid=$!
            for i in $(seq 600); do stty -a </dev/tty | grep -q -- '-echo ' && break; sleep 0.1; done
            kill -INT $pid; wait $pid; echo "status=$?"
            stty -a </dev/tty | tr ' ' '\\n' | grep -x -e echo -e -echo
            """
        // Standard input stays open: script(1) would pass its end on to the terminal as ^D.
        let process = try ChildProcess.start(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["MODHOST_DATA_DIR": data, "TERM": "xterm"])
        let result = try process.wait(deadline: 120)
        let lines = result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.contains("status=130"), "\(result.stdout)")
        #expect(lines.last == "echo", "echo is back on: \(result.stdout)")
    }

    @Test func ctrlCAtTheAppsPromptEndsTheLineBeforeTheShellsPrompt() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        // Interrupted once it waits in read(2) on standard input, at the prompt (x86-64 syscall
        // 0, first argument 0). Any read will not do: the runtime reads /proc/self/maps before
        // the guard is installed, and a background job of sh(1) starts with SIGINT ignored, so
        // a signal sent then is lost and the app waits at its prompt for ever.
        let command = """
            \(TestEnvironment.modhost) --config \(config) </dev/tty & pid=$!
            for i in $(seq 600); do [ "$(cut -d' ' -f1,2 /proc/$pid/syscall 2>/dev/null)" = "0 0x0" ] && break; sleep 0.1; done
            kill -INT $pid; wait $pid; echo "status=$?"
            """
        let process = try ChildProcess.start(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["MODHOST_DATA_DIR": data, "TERM": "xterm", "NO_COLOR": "1"])
        let result = try process.wait(deadline: 120)
        let lines = result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        // The prompt, then a line break, then the shell's next output on a line of its own.
        #expect(lines.suffix(2) == ["Which one? ", "status=130"], "\(result.stdout)")
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
