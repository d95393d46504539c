import Foundation
import Testing

@testable import HostCommandLine

/// A route protocol linked statically into two libraries exists twice in the process under
/// one name: the host must say so, naming both libraries, and never give a false reason.
@Suite struct SplitRouteTests {
    static let reason =
        "route 'SplitRoute' has two identities in this process: libFixtureSplitConsumer.so and libFixtureSplitProvider.so "
        + "(from 'FixtureSplitProvider') each carry their own copy of the protocol (its contracts target is linked statically "
        + "into both); move 'SplitRoute' into a package whose library product is 'type: .dynamic', depend on that product "
        + "from both modules, and rebuild both"

    @Test func theConsumerIsRefusedBeforeItStartsWithBothLibrariesNamed() throws {
        let runtime = try makeRuntime([("FixtureSplitConsumer", ""), ("FixtureSplitProvider", "")])
        runtime.start()
        defer { runtime.stop() }
        #expect(state(runtime, "FixtureSplitProvider").0 == .active)
        let (consumerState, consumerReason) = state(runtime, "FixtureSplitConsumer")
        #expect(consumerState == .failed)
        #expect(consumerReason == Self.reason)
    }

    @Test func routesListsTheRouteOnceWithItsProviderAndConsumer() throws {
        let runtime = try makeRuntime([("FixtureSplitProvider", ""), ("FixtureSplitConsumer", "")])
        runtime.start()
        defer { runtime.stop() }
        let split = runtime.routes.filter { $0.route == "SplitRoute" }
        #expect(split.count == 1)
        #expect(split.first?.provider == "FixtureSplitProvider")
        #expect(split.first?.consumers == ["FixtureSplitConsumer [failed] (requires)"])
    }

    @Test func withoutItsProviderTheConsumerGetsTheUsualReason() throws {
        let runtime = try makeRuntime([("FixtureSplitConsumer", ""), ("FixtureSplitProvider", #""enabled": false"#)])
        runtime.start()
        defer { runtime.stop() }
        let (consumerState, consumerReason) = state(runtime, "FixtureSplitConsumer")
        #expect(consumerState == .skipped)
        #expect(consumerReason?.hasPrefix("requires 'SplitRoute', which no active module provides") == true)
    }
}
