import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A module in a process of its own is confined before its code runs: with the real `modhost`
/// and a real module (FixtureSandboxProbe) that does each thing — opens a file outside its
/// folder, connects to a server on loopback, signals the host, maps too much memory — and
/// prints what happened. The same module in the host's process is not confined, which shows
/// that each refusal is the sandbox's.
@Suite struct SandboxTests {
    let host: TestHost
    let outside: String

    /// FixtureSandboxProbe declares `network` and `read /usr/include`; `entry` adds to its
    /// entry in modules.json (`"deny": …`).
    init(entry: String = "") throws {
        let library = TestEnvironment.library("FixtureSandboxProbe")
        host = try TestHost(entries: [("FixtureSandboxProbe", #""library": "\#(library)""#)])
        // Written whole: the world's entries know no "deny".
        try #"{"modules": [{"name": "FixtureSandboxProbe", "enabled": true, "library": "\#(library)"\#(entry)}]}"#
            .write(toFile: host.modulesFile, atomically: true, encoding: .utf8)
        outside = try TestEnvironment.temporaryFolder()
        #expect(FileManager.default.createFile(atPath: outside + "/secret", contents: Data("key".utf8)))
    }

    /// The line the probe prints for `what`, in its own process or in the host's.
    func attempt(_ what: String..., isolated: Bool = true) throws -> String {
        let result = try host.run(
            arguments: (isolated ? ["--isolate", "FixtureSandboxProbe"] : []) + ["fixtureSandboxProbe", "try"] + what)
        #expect(result.succeeded, "\(result)")
        return result.stdout.trimmingCharacters(in: CharacterSet.newlines)
    }

    @Test func filesOutsideItsDataFolderAreRefused() throws {
        #expect(try attempt("read", outside + "/secret") == "read \(outside)/secret: refused (Permission denied)")
        #expect(try attempt("write", outside + "/planted") == "write \(outside)/planted: refused (Permission denied)")
        #expect(!FileManager.default.fileExists(atPath: outside + "/planted"))
        #expect(try attempt("read", "/etc/passwd") == "read /etc/passwd: refused (Permission denied)")
        // Another module's data, beside its own.
        try FileManager.default.createDirectory(atPath: host.dataFolder + "/Photos", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: host.dataFolder + "/Photos/photos.sqlite", contents: Data("db".utf8)))
        #expect(
            try attempt("read", host.dataFolder + "/Photos/photos.sqlite")
                == "read \(host.dataFolder)/Photos/photos.sqlite: refused (Permission denied)")
        // In the host's process nothing stops it: the refusal above is the sandbox's.
        #expect(try attempt("read", outside + "/secret", isolated: false) == "read \(outside)/secret: ok")
    }

    /// Each file its sandbox refuses is named by the host as it happens, with the file's path
    /// (through a symlink, the file it leads to); what it may reach, and a file not there, say
    /// nothing.
    @Test func eachFileItsSandboxRefusesIsNamed() throws {
        func told(_ words: String...) throws -> (said: String, saw: String) {
            let result = try host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try"] + words)
            return (result.stderr, result.stdout.trimmingCharacters(in: .newlines))
        }
        let module = "modhost: warn: module 'FixtureSandboxProbe'"
        let refused = ": refused by its sandbox (not declared)\n"
        let secret = try told("read", outside + "/secret")
        #expect(secret.said == "\(module) tried to read \(outside)/secret\(refused)")
        #expect(secret.saw == "read \(outside)/secret: refused (Permission denied)")
        #expect(try told("write", outside + "/planted").said == "\(module) tried to write \(outside)/planted\(refused)")
        #expect(try told("remove", outside + "/secret").said == "\(module) tried to remove \(outside)/secret\(refused)")
        #expect(FileManager.default.fileExists(atPath: outside + "/secret"))
        try FileManager.default.createDirectory(atPath: host.dataFolder + "/Photos", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: host.dataFolder + "/Photos/photos.sqlite", contents: Data("db".utf8)))
        #expect(
            try told("read", host.dataFolder + "/Photos/photos.sqlite").said
                == "\(module) tried to read \(host.dataFolder)/Photos/photos.sqlite\(refused)")
        // Moved or linked into its own folder: the old name is named (a link is answered as
        // Landlock answers it, so that a program copies instead).
        let moved = try told("move", outside + "/secret")
        #expect(moved == ("\(module) tried to move \(outside)/secret\(refused)", "move \(outside)/secret: refused (Permission denied)"))
        let linked = try told("link", outside + "/secret")
        #expect(linked.said == "\(module) tried to link to \(outside)/secret\(refused)")
        #expect(linked.saw == "link \(outside)/secret: refused (Invalid cross-device link)")
        #expect(FileManager.default.fileExists(atPath: outside + "/secret"))
        // With `exec`, a program outside the folders of programs (a copy in its own folder).
        let copy = host.dataFolder + "/FixtureSandboxProbe/true"
        try FileManager.default.createDirectory(atPath: host.dataFolder + "/FixtureSandboxProbe", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: copy)
        let ran = try told("exec", copy)
        #expect(ran.said.hasPrefix("\(module) tried to run \(copy): refused by its sandbox (programs run from /"), "\(ran)")
        #expect(ran.saw == "exec \(copy): refused (Permission denied)")
        #expect(try told("exec") == ("", "exec: ok"))
        let through = try told("through", outside + "/secret")
        #expect(through.said == "\(module) tried to read \(outside)/secret\(refused)")
        #expect(through.saw == "through \(outside)/secret: refused (Permission denied)")
        // What it may reach, and a file that is not there (it sees ENOENT, as without a sandbox).
        #expect(try told("own") == ("", "own: ok"))
        #expect(try told("read", "/usr/include/stdio.h") == ("", "read /usr/include/stdio.h: ok"))
        #expect(try told("read", outside + "/nothing") == ("", "read \(outside)/nothing: refused (No such file or directory)"))
    }

    @Test func itsOwnDataFolderIsItsToReadAndWrite() throws {
        #expect(try attempt("own") == "own: ok")
        #expect(FileManager.default.contents(atPath: host.dataFolder + "/FixtureSandboxProbe/probe") == Data("mine".utf8))
    }

    /// A listening socket on loopback: its port.
    static func listening() throws -> (Int32, String) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(server >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, length) == 0 && getsockname(server, $0, &length) == 0 }
        }
        try #require(bound && listen(server, 4) == 0)
        return (server, "\(UInt16(bigEndian: address.sin_port))")
    }

    @Test func aDeclaredCapabilityIsLetThrough() throws {
        let (server, port) = try Self.listening()
        defer { close(server) }
        #expect(try attempt("connect", port) == "connect \(port): ok")
        #expect(try attempt("read", "/usr/include/stdio.h") == "read /usr/include/stdio.h: ok")
    }

    @Test func whatModulesJSONDeniesIsRefused() throws {
        let denied = try SandboxTests(entry: #", "deny": ["network", "read /usr/include"]"#)
        let (server, port) = try Self.listening()
        defer { close(server) }
        #expect(try denied.attempt("connect", port) == "connect \(port): refused (Operation not permitted)")
        #expect(try denied.attempt("udp") == "udp: refused (Operation not permitted)")
        #expect(try denied.attempt("read", "/usr/include/stdio.h") == "read /usr/include/stdio.h: refused (Permission denied)")
        #expect(try denied.attempt("connect", port, isolated: false) == "connect \(port): ok")
        // Its report says what it may, after the denial.
        let report = try denied.host.run("--isolate", "FixtureSandboxProbe", "modules")
        #expect(report.stdout.contains("    may: exec, write ~/probe-out, env PROBE_DECLARED\n"), "\(report)")
        #expect(
            try host.run("--isolate", "FixtureSandboxProbe", "modules").stdout.contains(
                "    may: network, exec, read /usr/include, write ~/probe-out, env PROBE_DECLARED"))
    }

    @Test func aDenialOfSomethingNotACapabilityIsAClearError() throws {
        let wrong = try SandboxTests(entry: #", "deny": ["internet"]"#)
        let result = try wrong.host.run("modules")
        #expect(result.stderr.contains("'deny' lists \"internet\", not a capability"), "\(result)")
    }

    @Test func theHostAndTheKernelAreOutOfReach() throws {
        #expect(try attempt("signal") == "signal: refused (Operation not permitted)")
        // Its own /proc is readable (libdispatch needs it), the host's secrets there are not.
        #expect(try attempt("hostenv") == "hostenv: refused (Permission denied)")
        #expect(try attempt("hostenv", isolated: false) == "hostenv: ok")
        #expect(try attempt("peek") == "peek: refused (Operation not permitted)")
        #expect(try attempt("unshare") == "unshare: refused (Operation not permitted)")
        let noExec = try SandboxTests(entry: #", "deny": ["exec"]"#)
        #expect(try noExec.attempt("exec") == "exec: refused (Operation not permitted)")
        #expect(try noExec.attempt("exec", isolated: false) == "exec: ok")
        // Ways around the rules above, each closed.
        #expect(try attempt("unix") == "unix: refused (Operation not permitted)")
        #expect(try attempt("tiocsti") == "tiocsti: refused (Operation not permitted)")
        #expect(try attempt("uring") == "uring: refused (Operation not permitted)")
        #expect(try attempt("clone") == "clone: refused (Operation not permitted)")
        #expect(try attempt("unix", isolated: false) == "unix: ok")
    }

    /// Its process keeps the host's own variables and those it declares (`env PROBE_DECLARED`),
    /// no other: not with getenv, not in /proc/self/environ.
    @Test func itSeesOnlyTheEnvironmentItDeclared() throws {
        let environment = ["PROBE_DECLARED": "yes", "PROBE_SECRET": "s3cret"]
        func line(_ words: [String], isolated: Bool = true) throws -> String {
            let arguments = (isolated ? ["--isolate", "FixtureSandboxProbe"] : []) + ["fixtureSandboxProbe", "try"] + words
            return try host.run(arguments: arguments, environment: environment).stdout
        }
        #expect(try line(["env", "PROBE_DECLARED"]) == "env PROBE_DECLARED: set\n")
        #expect(try line(["env", "PROBE_SECRET"]) == "env PROBE_SECRET: not set\n")
        #expect(try line(["procenv", "PROBE_SECRET"]) == "procenv PROBE_SECRET: absent\n")
        #expect(try line(["env", "PROBE_SECRET"], isolated: false) == "env PROBE_SECRET: set\n")
        #expect(try line(["procenv", "PROBE_DECLARED"], isolated: false) == "procenv PROBE_DECLARED: present\n")
    }

    /// `write ~/probe-out` is its home's folder, never reached through a symlink (one a
    /// module could plant would lead anywhere): then it is not granted, and said.
    @Test func aDeclaredPathIsNeverTakenThroughASymlink() throws {
        let home = try TestEnvironment.temporaryFolder()
        try FileManager.default.createDirectory(atPath: home + "/probe-out", withIntermediateDirectories: true)
        let arguments = ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "write", home + "/probe-out/made"]
        let granted = try host.run(arguments: arguments, environment: ["HOME": home])
        #expect(granted.stdout == "write \(home)/probe-out/made: ok\n", "\(granted)")
        let elsewhere = try TestEnvironment.temporaryFolder()
        let linked = try TestEnvironment.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: linked + "/probe-out", withDestinationPath: elsewhere)
        let through = try host.run(
            arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "write", linked + "/probe-out/made"],
            environment: ["HOME": linked])
        #expect(through.stdout == "write \(linked)/probe-out/made: refused (Permission denied)\n", "\(through)")
        #expect(through.stderr.contains("its sandbox: '\(linked)/probe-out' is not granted: its path goes through a symlink"), "\(through)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/made"))
    }

    /// Each call the filter refuses is named in one line, by the host, before the module sees
    /// its failure: what it tried and what it would have to declare (or that no module may).
    @Test func eachRefusalOfTheFilterIsNamed() throws {
        let denied = try SandboxTests(entry: #", "deny": ["network", "exec"]"#)
        func told(_ words: String...) throws -> String {
            try denied.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try"] + words).stderr
        }
        let module = "modhost: warn: module 'FixtureSandboxProbe'"
        #expect(try told("udp") == "\(module) tried to open a socket (AF_INET): refused by its sandbox (not declared: network)\n")
        #expect(try told("exec") == "\(module) tried to run /bin/true: refused by its sandbox (not declared: exec)\n")
        #expect(try told("peek") == "\(module) tried process_vm_readv: refused by its sandbox (no module may)\n")
        #expect(try told("tiocsti") == "\(module) tried to type into the terminal: refused by its sandbox (no module may)\n")
        // A file beyond its grants, which Landlock would refuse unsaid, is named by the host.
        #expect(try told("read", "/etc/passwd") == "\(module) tried to read /etc/passwd: refused by its sandbox (not declared)\n")
        // Nor does libdispatch's syslog socket, which is not the module's doing.
        #expect(try told("dispatch") == "")
        // Forty at once: sixteen told, then one line for the rest; every call refused.
        let flood = try denied.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "flood", "40"])
        #expect(flood.stdout == "flood 40: 40 refused\n", "\(flood)")
        #expect(flood.errorLines.count == 17, "\(flood)")
        #expect(flood.errorLines.last == "\(module): its sandbox refused more; those are not told", "\(flood)")
    }

    /// The sandbox holds for every thread of the module's process, the guard's too (started
    /// after it): a thread left outside would be a way out.
    @Test func everyThreadIsInTheSandbox() throws {
        #expect(try attempt("threads") == "threads: ok")
    }

    /// libdispatch reads its workers' `/proc/TID/stat` when they block while work waits, and
    /// ends the process if it cannot (a crash seen with Photos and Geo isolated on a busy machine).
    @Test func libdispatchMayWatchItsWorkers() throws {
        #expect(try attempt("dispatch") == "dispatch: ok")
    }

    @Test func itsMemoryIsLimited() throws {
        #expect(try attempt("allocate", "64") == "allocate 64: ok")
        #expect(try attempt("allocate", "3072") == "allocate 3072: refused (Cannot allocate memory)")
        // Raised for this module in modules.json; a bad limit is a clear error.
        let raised = try SandboxTests(entry: #", "limits": {"memoryMiB": 4096}"#)
        #expect(try raised.attempt("allocate", "3072") == "allocate 3072: ok")
        let wrong = try SandboxTests(entry: #", "limits": {"memoryMiB": 2.5, "cpu": 1}"#)
        let result = try wrong.host.run("modules")
        #expect(result.stderr.contains("'limits.memoryMiB' must be a whole number from 64 to 1048576, found 2.5"), "\(result)")
        #expect(
            result.stderr.contains(
                "'limits' has no 'cpu'; it takes \"memoryMiB\", \"openFiles\", \"fileSizeMiB\", \"processes\" and \"cpuSeconds\""),
            "\(result)")
    }

    /// `"sandbox": "off"` in its entry: its own process, no sandbox, and `modules` says so.
    @Test func anOperatorMayTurnItsSandboxOff() throws {
        let off = try SandboxTests(entry: #", "sandbox": "off""#)
        #expect(try off.attempt("read", off.outside + "/secret") == "read \(off.outside)/secret: ok")
        let modules = try off.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "modules"])
        #expect(
            modules.stdout.contains("not enforced here: anything: its sandbox is off (\"sandbox\": \"off\" in modules.json)"), "\(modules)")
        // Any other word is a clear error.
        let wrong = try SandboxTests(entry: #", "sandbox": "none""#)
        #expect(try wrong.host.run("modules").stderr.contains(#"'sandbox' must be "required", "best-effort" or "off", found "none""#))
    }

    /// Its processes are counted by the host, itself included (`RLIMIT_NPROC` would count the
    /// user's, and none of root's): one past the limit is refused `EAGAIN` and named; in the
    /// host's process nothing stops it.
    @Test func itsProcessesAreLimited() throws {
        let limited = try SandboxTests(entry: #", "limits": {"processes": 6}"#)
        let result = try limited.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "fork", "20"])
        #expect(result.stdout == "fork 20: 5 started, then refused (Resource temporarily unavailable)\n", "\(result)")
        #expect(
            result.stderr
                == "modhost: warn: module 'FixtureSandboxProbe' tried to start a process past its limit of 6: refused by its sandbox (limits.processes in modules.json)\n",
            "\(result)")
        // The default (64) leaves room; the ended ones count no more.
        #expect(try attempt("fork", "20") == "fork 20: 20 started")
        #expect(try limited.attempt("fork", "5") == "fork 5: 5 started")
        #expect(try limited.attempt("fork", "20", isolated: false) == "fork 20: 20 started")
    }

    /// A limit `modules.json` asks for above the hard limit the host was started with (here
    /// `prlimit`'s) is lowered to it, and said; one within it is set as asked, without a word.
    @Test func aLimitAboveTheHostsHardLimitIsLoweredAndSaid() throws {
        let raised = try SandboxTests(entry: #", "limits": {"openFiles": 1000}"#)
        let command = ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "files"]
        let program = try RunningProgram(
            ["/usr/bin/prlimit", "--nofile=512:512", raised.host.executable] + command, environment: raised.host.environment,
            directory: raised.host.folder)
        program.closeInput()
        let lowered = try program.wait(timeout: .seconds(60))
        #expect(lowered.stdout == "files: 512 512\n", "\(lowered)")
        #expect(
            lowered.stderr.contains(
                "module 'FixtureSandboxProbe': its sandbox: limit openFiles 1000 lowered to openFiles 512, the hard limit this host was started with"
            ),
            "\(lowered)")
        let asked = try raised.host.run(arguments: command)
        #expect(asked.stdout == "files: 1000 1000\n" && !asked.stderr.contains("lowered"), "\(asked)")
    }

    /// A signal to the host or its process group is refused by the filter and named, also
    /// where Landlock does not scope signals (below ABI 6, as `MODHOST_LANDLOCK_ABI` makes it):
    /// the host lives on.
    @Test(arguments: [("term", "process "), ("group", "its process group")], ["", "5"])
    func aSignalToTheHostIsRefusedAndNamed(what: (verb: String, whom: String), abi: String) throws {
        let result = try host.run(
            arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", what.verb],
            environment: abi.isEmpty ? [:] : ["MODHOST_LANDLOCK_ABI": abi])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout == "\(what.verb): refused (Operation not permitted)\n", "\(result)")
        #expect(
            result.stderr.contains("module 'FixtureSandboxProbe' tried to send signal 15 (Terminated) to \(what.whom)"),
            "\(result.stderr)")
    }

    /// On a kernel of an older Landlock (asked for with `MODHOST_LANDLOCK_ABI`, which makes the
    /// sandbox at that ABI for real), `modules` names what is not enforced; a module whose
    /// entry says `"sandbox": "required"` does not start there, and says why.
    @Test func whatAnOlderKernelCannotEnforceIsNamedAndRequiredRefusesIt() throws {
        let older = ["MODHOST_LANDLOCK_ABI": "3"]
        let denied = try SandboxTests(entry: #", "deny": ["network"]"#)
        let report = try denied.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "modules"], environment: older)
        #expect(
            report.stdout.contains(
                "    not enforced here: TCP connect and bind: Landlock ABI 3 < 4 (other sockets are still refused)"
            ), "\(report)")
        // Best effort: it starts, and what the filter refuses is still refused.
        let tried = try denied.host.run(
            arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "udp"], environment: older)
        #expect(tried.stdout == "udp: refused (Operation not permitted)\n", "\(tried)")
        let required = try SandboxTests(entry: #", "deny": ["network"], "sandbox": "required""#)
        let refused = try required.host.run(
            arguments: ["--isolate", "FixtureSandboxProbe", "fixtureSandboxProbe", "try", "udp"], environment: older)
        #expect(!refused.succeeded)
        #expect(refused.stdout.isEmpty, "\(refused)")
        #expect(
            refused.stderr.contains(
                "its process ended before it greeted the host: its sandbox cannot be whole here ('sandbox' is \"required\"): this kernel cannot enforce TCP connect and bind"
            ), "\(refused)")
        // On this kernel's own ABI it is whole, and starts.
        #expect(try required.attempt("udp") == "udp: refused (Operation not permitted)")
    }

    /// `check` says it too, as a start would find it: a note where the sandbox is best effort,
    /// a problem (and exit 1) where the entry requires it whole; nothing on this kernel's ABI.
    @Test func checkNamesWhatAnOlderKernelCannotEnforce() throws {
        let older = ["MODHOST_LANDLOCK_ABI": "3"]
        let missing =
            "TCP connect and bind: Landlock ABI 3 < 4 (other sockets are still refused)"
        let bestEffort = try SandboxTests(entry: #", "deny": ["network"]"#)
        let noted = try bestEffort.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "check"], environment: older)
        #expect(noted.status == 0, "\(noted)")
        #expect(
            noted.stdout.contains("module 'FixtureSandboxProbe' runs in a process of its own; not enforced here: \(missing)\n"), "\(noted)")
        let whole = try bestEffort.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "check"])
        #expect(whole.status == 0 && !whole.stdout.contains("not enforced here"), "\(whole)")
        let required = try SandboxTests(entry: #", "deny": ["network"], "sandbox": "required""#)
        let refused = try required.host.run(arguments: ["--isolate", "FixtureSandboxProbe", "check"], environment: older)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains(
                "('FixtureSandboxProbe'): its sandbox cannot be whole here ('sandbox' is \"required\"): this kernel cannot enforce \(missing)"
            ), "\(refused)")
    }
}
