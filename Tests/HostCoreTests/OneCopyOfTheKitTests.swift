import FixtureContracts
import Foundation
import HostCore
import ModuleKit
import TestSupport
import Testing

/// The process must hold exactly one ModuleKit and one Contracts (README, "Layout"): otherwise a
/// route registered by one library fails the `as?` cast in another, silently.
@Suite struct OneCopyOfTheKitTests {
    @Test func aRouteFromOneLibraryCastsInTheHostAndInAnotherLibrary() throws {
        let runtime = try makeRuntime([("FixtureProvider", #""config": {"greeting": "Hej"}"#), ("FixtureConsumer", "")])
        runtime.start()
        defer { runtime.stop() }
        // The host resolves and casts the provider's route.
        #expect(try runtime.resolver.resolve((any GreetingRoute).self).greet("host") == "Hej, host!")
        // The consumer library resolved and called it in its own start.
        let report = try runtime.resolver.resolve((any ConsumerReportRoute).self)
        #expect(report.greetingSeenAtStart == "Hej, consumer!")
        // And the consumer library sees the same ServiceLocator.shared as the test process.
        #expect(report.sharedLocatorAddress == UInt(bitPattern: ObjectIdentifier(ServiceLocator.shared)))
    }

    @Test(arguments: ["FixtureProvider", "FixtureConsumer", "FixtureOptional"])
    func aModuleLibraryDefinesNoKitSymbols(module: String) throws {
        let kitPrefixes = ["$s9ModuleKit", "$s9Contracts", "$s16FixtureContracts"]
        let moduleSymbols = try definedSymbols(TestEnvironment.library(module))
        #expect(moduleSymbols.contains("modhost_module_entry"))
        #expect(moduleSymbols.filter { symbol in kitPrefixes.contains { symbol.hasPrefix($0) } } == [])
        // The check can fail: the kit's own library does define such symbols.
        let kitSymbols = try definedSymbols(TestEnvironment.library("ModuleKit"))
        #expect(kitSymbols.contains { $0.hasPrefix("$s9ModuleKit14ServiceLocatorC") })
    }

    private func definedSymbols(_ library: String) throws -> [String] {
        let result = try ChildProcess.run("/usr/bin/env", ["nm", "-D", "--defined-only", library])
        #expect(result.status == 0, "nm failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }
}
