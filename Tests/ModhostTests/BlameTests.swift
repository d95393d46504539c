import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A module is blamed only for what it did: a closed or full standard output is the host's,
/// a signal from outside is nobody's, and a crash is the module's in whose code it happened,
/// on whichever thread and whatever the host was doing.
@Suite struct BlameTests {
    /// A world of Geo (with one city), Settings and FixtureMisbehaves told how to misbehave in
    /// `command`. The shell lines below run its host with its `--config` and data folder.
    func world(misbehaving how: String = "", in phase: String = "command") throws -> TestHost {
        let fields = how.isEmpty ? "" : #""config": {"in": "\#(phase)", "how": "\#(how)"}"#
        let host = try TestHost(entries: [("Geo", ""), ("Settings", ""), ("FixtureMisbehaves", fields)])
        let added = try host.run("geo", "add", "--country", "FR", "--city", "Paris")
        #expect(added.succeeded, "\(added)")
        return host
    }

    /// No module is marked failed, no marker or record is left, nothing is warned.
    func expectNobodyBlamed(_ config: String, _ data: String, _ context: String) throws {
        #expect(MarkerFiles.busy(in: data).isEmpty, "a marker was left: \(context)")
        #expect(((try? String(contentsOfFile: data + "/.modhost/crashes", encoding: .utf8)) ?? "") == "", "\(context)")
        let next = try modhost(["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(next.stderr == "", "\(context): \(next.stderr)")
        #expect(!next.stdout.contains("failed"), "\(context): \(next.stdout)")
    }

    static let printingCommands: [[String]] = [
        ["geo", "list"], ["geo", "list", "--json"], ["settings", "list"], ["settings", "list", "--json"], ["fixturemisbehaves", "run"],
    ]

    @Test(arguments: printingCommands)
    func aFullStandardOutputIsOneMessageAndTheHostsFailure(command: [String]) throws {
        let host = try world()
        let (config, data) = (host.config, host.data)
        let line = ([TestEnvironment.modhost, "--config", config] + command).map { "'\($0)'" }.joined(separator: " ")
        let result = try ChildProcess.run("/bin/sh", ["-c", "\(line) > /dev/full"], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.status == 1)
        #expect(result.stderr == "modhost: error: cannot write to standard output: No space left on device\n", "\(command)")
        try expectNobodyBlamed(config, data, "\(command)")
    }

    @Test(arguments: printingCommands + [["fixturemisbehaves", "run", "flood"]])
    func aClosedPipeEndsQuietlyWithStatusOneAndBlamesNoModule(command: [String]) throws {
        // 'flood' prints 100 MB in the command; the reader closes its end before modhost starts.
        let flood = command.last == "flood"
        let host = try world(misbehaving: flood ? "flood" : "")
        let (config, data) = (host.config, host.data)
        let arguments = flood ? Array(command.dropLast()) : command
        let line = ([TestEnvironment.modhost, "--config", config] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let gate = data + "/reader-closed"
        let script = """
            (while [ ! -e '\(gate)' ]; do sleep 0.01; done; exec \(line)) | (exec 0<&-; touch '\(gate)'; sleep 0)
            echo "status=${PIPESTATUS[0]}"
            """
        let result = try ChildProcess.run("/bin/bash", ["-c", script], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.stdout == "status=1\n", "\(command): \(result.stdout)")
        #expect(result.stderr == "", "\(command): quiet, as a reader that went away asks")
        try expectNobodyBlamed(config, data, "\(command)")
    }

    @Test(arguments: [
        (SIGHUP, 128 + SIGHUP), (SIGQUIT, 128 + SIGQUIT), (SIGUSR1, 128 + SIGTERM), (SIGUSR2, 128 + SIGTERM), (SIGPIPE, 128 + SIGTERM),
    ])
    func aSignalFromOutsideDuringAModuleCallIsNobodysFault(signal: Int32, status: Int32) throws {
        // SIGHUP and SIGQUIT end the host as SIGTERM does; SIGUSR1, SIGUSR2 and SIGPIPE are
        // ignored (the SIGTERM sent after them ends it).
        let host = try world(misbehaving: "block")
        let (config, data) = (host.config, host.data)
        let process = try ChildProcess.start(
            TestEnvironment.modhost, ["--config", config, "fixturemisbehaves", "run"], environment: ["MODHOST_DATA_DIR": data])
        try CrashGuardTests().waitForMarker(in: data, containing: "FixtureMisbehaves\tcommand\t", of: process.processIdentifier)
        process.send(signal)
        if status == 128 + SIGTERM { process.send(SIGTERM) }
        let result = try process.wait(deadline: 30)
        #expect(!result.signaled && result.status == status, "\(result.status) \(result.signaled)")
        try expectNobodyBlamed(config, data, "signal \(signal)")
    }

    @Test func aCrashOnAModulesOwnThreadWhileTheAppWaitsIsNamedAndSkipped() throws {
        let data = try TestEnvironment.temporaryFolder()
        let trigger = data + "/crash-now"
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([
                ("Geo", ""), ("FixtureMisbehaves", #""config": {"how": "crashOnThread", "trigger": "\#(trigger)"}"#),
            ]))
        let app = try ChildProcess.start(TestEnvironment.modhost, ["--config", config], environment: ["MODHOST_DATA_DIR": data])
        try app.waitForOutput(containing: "Which one? ")
        #expect(FileManager.default.createFile(atPath: trigger, contents: nil))
        let result = try app.wait()
        #expect(result.signaled && result.status == SIGILL)
        #expect(
            result.errorLines.contains {
                $0.hasPrefix(
                    "modhost: error: module 'FixtureMisbehaves' crashed the host in background (SIGILL); it is skipped from the next start; 'modhost --retry FixtureMisbehaves' tries it again; its backtrace is in '"
                )
            }, "\(result.stderr)")
        let next = try modhost(["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(next.stdout.contains("FixtureMisbehaves failed"), "\(next.stdout)")
        #expect(next.stdout.contains(" in background (SIGILL); 'modhost --retry FixtureMisbehaves' tries it again"))
        #expect(next.stdout.split(separator: "\n").contains { $0.hasPrefix("Geo ") && $0.contains(" active ") })
    }

    @Test func aRaisedFatalSignalEndsTheHostByThatSignalWithARecord() throws {
        let host = try world(misbehaving: "raise")
        let (config, data) = (host.config, host.data)
        let result = try modhost(["--config", config, "fixturemisbehaves", "run"], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.signaled && result.status == SIGSEGV, "\(result.status)")
        #expect(result.stdout == "", "the command did not carry on")
        let next = try modhost(["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(next.stdout.contains(" in command (SIGSEGV); 'modhost --retry FixtureMisbehaves' tries it again"), "\(next.stdout)")
    }

    @Test(arguments: ["command", "load"])
    func aModuleThatClosesTheStandardDescriptorsIsNamedAndTheyArePutBack(phase: String) throws {
        let host = try world(misbehaving: phase == "command" ? "closeStandardFiles" : "")
        let (config, data) = (host.config, host.data)
        let result = try modhost(
            ["--config", config, "fixturemisbehaves", "run"],
            environment: ["MODHOST_DATA_DIR": data, "FIXTURE_MISBEHAVES_IN_LOAD": phase == "load" ? "closeStandardFiles" : ""])
        #expect(result.status == 0)
        #expect(result.stdout == "fine\n", "standard output works after the module closed it")
        #expect(
            result.stderr
                == "modhost: warning: module 'FixtureMisbehaves' closed or replaced standard input, standard output and standard error in \(phase); the host put them back\n"
        )
    }

    @Test func aCrashOnATerminalEndsWithoutTheInteractiveBacktracer() throws {
        // On a pseudo-terminal the Swift runtime's backtracer would offer a session for 30 s.
        let host = try world(misbehaving: "fatalError")
        let (config, data) = (host.config, host.data)
        let command = "\(TestEnvironment.modhost) --config \(config) fixturemisbehaves run; echo \"status=$?\""
        let result = try TerminalProcess.run(command, environment: ["MODHOST_DATA_DIR": data], deadline: 20)
        let output = result.stdout.replacingOccurrences(of: "\r", with: "")
        #expect(output.contains("status=\(128 + SIGILL)"), "\(output)")
        #expect(!output.contains("Program crashed"), "\(output)")
        #expect(output.contains("; its backtrace is in '\(data)/.modhost/backtrace-"), "\(output)")
    }

    @Test func aModuleCannotTakeTheHostsAccessToTheLocatorEvenThroughItsSPI() throws {
        let host = try world(misbehaving: "claimHostAccess")
        let (config, data) = (host.config, host.data)
        let result = try modhost(["--config", config, "fixturemisbehaves", "run"], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.stdout == "no host access\nfine\n", "\(result.stderr)")
    }

    @Test(arguments: ["0<&-", "1>&-", "0<&- 1>&- 2>&-"])
    func aHostStartedWithStandardDescriptorsClosedStillRuns(closing: String) throws {
        // No pipe or file of the host's takes their numbers: /dev/null does.
        let host = try world()
        let (config, data) = (host.config, host.data)
        let status = data + "/status"
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", "'\(TestEnvironment.modhost)' --config '\(config)' modules \(closing); echo status=$? > '\(status)'"],
            environment: ["MODHOST_DATA_DIR": data])
        #expect((try? String(contentsOfFile: status, encoding: .utf8)) == "status=0\n", "\(closing): \(result.stdout)\(result.stderr)")
        if !closing.contains("1>&-") { #expect(result.stdout.contains("Geo")) }
    }
}
