import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `--sandbox-audit NAME`: the module runs in a process of its own whose sandbox lets every call
/// through, and the host says, as the lines of a module.manifest, what it used beyond what
/// every module may. FixtureSandboxProbe does each thing for real; what its sandbox would have
/// refused now works, and is named.
@Suite struct SandboxAuditTests {
    /// Runs the probe's `try WHAT` audited: its line, and what the host said.
    func audited(_ world: SandboxTests, _ what: String...) throws -> (line: String, said: String) {
        let result = try world.host.run(arguments: ["--sandbox-audit", "FixtureSandboxProbe", "fixtureSandboxProbe", "try"] + what)
        #expect(result.succeeded, "\(result)")
        return (result.stdout.trimmingCharacters(in: .newlines), result.stderr)
    }

    @Test func whatItsSandboxWouldRefuseIsLetThroughAndNamed() throws {
        // Denied network: a sandbox would refuse the connection; audited, it is made.
        let world = try SandboxTests(entry: #", "deny": ["network", "read", "exec"]"#)
        let (server, port) = try SandboxTests.listening()
        defer { close(server) }
        let connected = try audited(world, "connect", port)
        #expect(connected.line == "connect \(port): ok")
        #expect(connected.said.contains("its module.manifest would need\n"), "\(connected.said)")
        #expect(connected.said.contains("  capability network\n"), "\(connected.said)")

        let read = try audited(world, "read", world.outside + "/secret")
        #expect(read.line == "read \(world.outside)/secret: ok")
        let secret = URL(fileURLWithPath: world.outside + "/secret").resolvingSymlinksInPath().path
        #expect(read.said.contains("  capability read \(secret)\n"), "\(read.said)")
        #expect(!read.said.contains("capability network"), "\(read.said)")

        let written = try audited(world, "write", world.outside + "/made")
        #expect(written.line == "write \(world.outside)/made: ok")
        #expect(written.said.contains("  capability write \(secret.dropLast("secret".count))made\n"), "\(written.said)")

        let ran = try audited(world, "exec")
        #expect(ran.line == "exec: ok", "\(ran)")
        #expect(ran.said.contains("  capability exec   (it ran /bin/true)\n"), "\(ran.said)")
    }

    @Test func itsOwnFolderIsNotNamed() throws {
        let world = try SandboxTests()
        let own = try audited(world, "own")
        #expect(own.line == "own: ok")
        #expect(own.said.contains("it used nothing beyond its data folder and what every module may"), "\(own.said)")
        #expect(own.said.contains("does not see environment variables"), "\(own.said)")
    }

    @Test func whatNoModuleMayIsNamedApart() throws {
        let world = try SandboxTests()
        let typed = try audited(world, "unix")
        #expect(typed.said.contains("it also tried what no module may: a UNIX socket"), "\(typed.said)")
    }
}
