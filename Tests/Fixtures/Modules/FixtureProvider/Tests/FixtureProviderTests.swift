import FixtureContracts
import FixtureProviderFeature
import ModuleKit
import ModuleKitTesting
import Testing

/// A module's unit tests, without the host: they link the module's code, not its library,
/// and run beside the integration tests that dlopen that library in the same process.
@MainActor
@Suite struct FixtureProviderTests {
    @Test func providesItsGreetingFromConfiguration() throws {
        let harness = ModuleTestHarness(FixtureProvider.self)
        try harness.start(configuration: #"{"greeting": "Bonjour"}"#)
        #expect(try harness.resolve((any GreetingRoute).self).greet("Zoé") == "Bonjour, Zoé!")
        try harness.run("greet", ["Ana"])
        #expect(throws: CommandUsageError.self) { try harness.run("greet", []) }
        harness.stop()
        #expect(harness.logLines == ["modhost: info: FixtureProvider: started\n", "modhost: info: FixtureProvider: stopped\n"])
    }

    @Test func failsInStartWhenConfiguredTo() throws {
        let harness = ModuleTestHarness(FixtureProvider.self)
        let error = #expect(throws: (any Error).self) { try harness.start(configuration: #"{"failIn": "start"}"#) }
        #expect("\(error.map { "\($0)" } ?? "")" == "start failed on purpose")
    }
}
