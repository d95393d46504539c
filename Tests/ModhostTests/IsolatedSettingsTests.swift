import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Settings registered from a module's own process: bound to that module, and asked of its
/// running process after a restart, with the real `modhost`, Settings and Geo.
@Suite struct IsolatedSettingsTests {
    /// Geo's "default country" reads a typed name through Geo's `interpret`, which runs in
    /// Geo's process. After a kill from outside and a restart, the name is still read, by the
    /// new process (before, Settings kept asking the gone one: "cannot be checked now").
    @Test func aRestartedModulesSettingsAreAskedOfItsNewProcess() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")])
        let app = try host.start(arguments: ["--isolate", "Geo"])
        guard try IsolationTests.killItsModuleProcessAtHome(app) != nil else { return }
        // Places (its process starts again), back, then Settings: default country "Germany".
        app.write("1\n0\n2\n11\nGermany\n0\nq\n")
        app.closeInput()
        let result = try app.wait()
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("starting its process again"), "\(result)")
        #expect(result.stdout.contains("Default country is now Germany."), "\(result)")
        #expect(result.stdout.contains("11. Places: Default country: Germany"), "\(result)")
        #expect(!result.stdout.contains("cannot be checked now"), "\(result)")
    }

    /// A module's process registers settings under its own name only: the host, not the
    /// caller, says which module calls.
    @Test func aProcessCannotRegisterSettingsAsAnotherModule() throws {
        let host = try TestHost(entries: [
            (
                "FixtureIsolatedGeo",
                #""library": "\#(TestEnvironment.library("FixtureIsolatedGeo"))", "config": {"registerAs": "Photos"}"#
            ),
            ("Settings", ""),
        ])
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "settings", "list")
        #expect(result.succeeded, "\(result)")
        #expect(
            result.stderr.contains(
                "module 'FixtureIsolatedGeo' registered settings as module 'Photos': refused (a module registers only its own)"),
            "\(result)")
        #expect(!result.stdout.contains("sneaky"), "\(result)")
        #expect(!result.stdout.contains("Sneaky"), "\(result)")
    }
}
