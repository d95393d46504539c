import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// How an isolated module's process ends, and what goes with it: a command past its CPU
/// limit, what it started, its temporary folder; and the filter it starts with.
extension SandboxTests {
    /// A command that burns CPU past `limits.cpuSeconds` is ended and named, a process it
    /// started counted with it; one that waits as long without burning CPU goes on (the limit
    /// is of CPU time: a command may wait for the person as long as it likes).
    @Test func aCommandPastItsCPULimitIsEndedAndNamed() throws {
        let limited = try SandboxTests(entry: #", "limits": {"cpuSeconds": 1}"#)
        for how in [[], ["child"]] {
            let result = try limited.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "spin"] + how)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.hasPrefix(
                    "modhost: error: module 'FixtureSandboxProbe' is unavailable: it used more than 1 s of CPU time within 2 s of a command: stopped by its sandbox (limits.cpuSeconds in modules.json); its process ("
                ), "\(result)")
        }
        #expect(CheckInTheAppTests.processes(in: limited.host).filter { $0.contains("__module-host") } == [])
        #expect(try limited.attempt("idle", "2") == "idle 2: ok")
    }

    /// What a module's process started ends with it when it crashes: the host adopts it
    /// (without, it would run on, and hold the link open: the host would wait for ever).
    @Test func whatItStartedEndsWhenItCrashes() throws {
        let result = try host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "orphan"])
        #expect(result.status == 1 && result.stderr.contains("crashed (signal 6, Aborted)"), "\(result)")
        #expect(CheckInTheAppTests.processes(in: host).filter { $0.contains("__module-host") } == [])
        // Its temporary folder too, which a crashed process cannot remove itself.
        #expect(try temporaryFolders() == [])
    }

    /// The module's own temporary folders (`.tmp-PID` in its data folder).
    /// The temporary folders left in the module's data folder, which must be there (a folder
    /// never made would pass for one emptied).
    func temporaryFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: host.dataFolder + "/FixtureSandboxProbe").filter { $0.hasPrefix(".tmp-") }
    }

    /// Its `TMPDIR` is a folder of its own in its data folder, which the host removes once its
    /// process has ended, whatever it holds, a link out included (removed, not followed).
    @Test func itsTemporaryFolderGoesWithItsProcess() throws {
        let own = try host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "own"])
        #expect(own.stdout == "own: ok\n", "\(own)")
        let result = try host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "temporary"])
        #expect(result.stdout == "temporary: ok\n", "\(result)")
        #expect(try temporaryFolders() == [])
        #expect(FileManager.default.contents(atPath: host.dataFolder + "/FixtureSandboxProbe/probe") == Data("mine".utf8))
    }

    /// Its filter is the program the host made while it started: the process builds its own
    /// only when there is none, or none for its grants (`SandboxProgramTests`). Its Landlock
    /// ruleset too, made of the same paths the process would have chosen, where the kernel has
    /// Landlock: the probe's reads and writes are refused and allowed as they are then.
    @Test func itsFilterAndRulesetAreTheOnesTheHostMade() throws {
        let result = try host.run(arguments: [
            "--log-level", "debug", "--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "files",
        ])
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("module 'FixtureSandboxProbe': its seccomp filter is the host's"), "\(result.stderr)")
        if !result.stderr.contains("not enforced here: files: the kernel has no Landlock") {
            #expect(result.stderr.contains("module 'FixtureSandboxProbe': its Landlock ruleset is the host's"), "\(result.stderr)")
        }
    }
}
