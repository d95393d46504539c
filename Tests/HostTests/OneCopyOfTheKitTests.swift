import FixtureContracts
import Foundation
import HostCommandLine
import ModuleKit
import TestSupport
import Testing

/// The process must hold exactly one ModuleKit and one Contracts (docs/ARCHITECTURE.md, "Layout"): otherwise a
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

    /// The test harness (ModuleKitTesting) links the kit's dynamic products: a harness that
    /// depended on the ModuleKit target would put a static copy of the kit in this binary.
    @Test func theTestBinaryHoldsNoCopyOfTheKit() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let symbols = try definedSymbols(executable, dynamicOnly: false)
        // The check can fail: the binary's own symbols are listed.
        #expect(symbols.contains { $0.hasPrefix("$s9HostTests") })
        // The locator's type descriptor and its `shared`: defined only where the kit is (a client
        // may define inlined helpers such as default arguments, which are harmless).
        let kitOnly = ["$s9ModuleKit14ServiceLocatorCMn", "$s9ModuleKit14ServiceLocatorC6shared"]
        #expect(symbols.filter { symbol in kitOnly.contains { symbol.hasPrefix($0) } } == [])
    }

    private func definedSymbols(_ library: String, dynamicOnly: Bool = true) throws -> [String] {
        let result = try ChildProcess.run("/usr/bin/env", ["nm"] + (dynamicOnly ? ["-D"] : []) + ["--defined-only", library])
        #expect(result.status == 0, "nm failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    }
}
