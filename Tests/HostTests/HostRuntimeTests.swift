import Contracts
import FixtureContracts
import Foundation
import ModuleKit
import Synchronization
import TestSupport
import Testing

@testable import HostGraph
@testable import HostLifecycle
@testable import HostModel

/// Loads the real test libraries through temporary modules.json files.
func makeRuntime(
    _ modules: [(String, String)],
    options: RuntimeOptions = RuntimeOptions(),
    locator: ServiceLocator = ServiceLocator()
) throws -> HostRuntime {
    let path = try TestEnvironment.write(TestEnvironment.modulesJSON(modules))
    let configuration = try ModulesFileDecoder(defaultSearchPath: TestEnvironment.buildFolder).decode(contentsOf: path)
    var options = options
    // Never the real data folder.
    options.dataFolder = try TestEnvironment.temporaryFolder()
    return try HostRuntime(configuration: configuration, options: options, locator: locator, logSink: { _ in })
}

func state(_ runtime: HostRuntime, _ name: String) -> (ModuleState?, String?) {
    let report = runtime.modules.first { $0.name == name }
    return (report?.state, report?.reason)
}

@Suite struct HostRuntimeTests {
    @Test func startsProviderThenConsumerAcrossTwoLibraries() throws {
        let runtime = try makeRuntime([("FixtureConsumer", ""), ("FixtureProvider", #""config": {"greeting": "Salut"}"#)])
        runtime.start()
        defer { runtime.stop() }
        #expect(runtime.modules.map(\.state) == [.active, .active])
        let report = try runtime.resolver.resolve((any ConsumerReportRoute).self)
        #expect(report.greetingSeenAtStart == "Salut, consumer!")
        #expect(try runtime.resolver.resolve((any GreetingRoute).self).greet("host") == "Salut, host!")
    }

    @Test func everyStateAndReasonOfAMixedFile() throws {
        let runtime = try makeRuntime([
            ("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureThrowsOnStart", ""), ("FixtureNeedsNobody", ""),
            ("FixtureCycleA", ""), ("FixtureCycleB", ""), ("FixtureOptional", ""), ("Geo", #""enabled": false"#),
        ])
        runtime.start()
        defer { runtime.stop() }
        let expected: [(String, ModuleState, String?)] = [
            ("FixtureProvider", .active, nil),
            ("FixtureConsumer", .active, nil),
            ("FixtureThrowsOnStart", .failed, "threw in start: alarm hardware not found"),
            ("FixtureNeedsNobody", .skipped, "requires 'UnprovidedRoute', which no active module provides"),
            ("FixtureCycleA", .failed, "dependency cycle: FixtureCycleA → FixtureCycleB → FixtureCycleA"),
            ("FixtureCycleB", .failed, "dependency cycle: FixtureCycleB → FixtureCycleA → FixtureCycleB"),
            ("FixtureOptional", .active, nil),
            ("Geo", .disabled, "disabled in modules.json"),
        ]
        #expect(runtime.modules.map(\.name) == expected.map(\.0))
        for (name, expectedState, expectedReason) in expected {
            let (actualState, actualReason) = state(runtime, name)
            #expect(actualState == expectedState, "\(name)")
            #expect(actualReason == expectedReason, "\(name)")
        }
        #expect(runtime.modules.first { $0.name == "FixtureConsumer" }?.version == "0.9.0")
        #expect(runtime.modules.first { $0.name == "Geo" }?.version == nil)
    }

    @Test func manyModulesCheckedTwoAtATimeEachKeepItsOwnOutcome() throws {
        // Sixteen enabled modules and more are checked on two threads: each report must still
        // be its own module's, in the file's order.
        let folder = try TestEnvironment.temporaryFolder()
        var modules: [(String, String)] = [("FixtureProvider", ""), ("FixtureConsumer", "")]
        for index in 0..<10 { modules.append(("Missing\(index)", #""library": "\#(folder)/libMissing\#(index).so""#)) }
        for index in 0..<8 {
            let path = folder + "/libText\(index).so"
            try Data("not a library \(index)\n".utf8).write(to: URL(fileURLWithPath: path))
            modules.append(("Text\(index)", #""library": "\#(path)""#))
        }
        let runtime = try makeRuntime(modules)
        runtime.start()
        defer { runtime.stop() }
        #expect(runtime.modules.map(\.name) == modules.map(\.0))
        #expect(state(runtime, "FixtureProvider").0 == .active && state(runtime, "FixtureConsumer").0 == .active)
        for index in 0..<10 {
            let (moduleState, reason) = state(runtime, "Missing\(index)")
            #expect(moduleState == .failed)
            #expect(reason?.hasPrefix("library '\(folder)/libMissing\(index).so' does not exist") == true, "\(reason ?? "")")
        }
        for index in 0..<8 {
            let (moduleState, reason) = state(runtime, "Text\(index)")
            #expect(moduleState == .failed)
            #expect(reason?.hasPrefix("library '\(folder)/libText\(index).so' is not an ELF file") == true, "\(reason ?? "")")
        }
    }

    @Test func optionalRoutesResolveOrExplainAndUndeclaredOnesAreRefused() throws {
        let runtime = try makeRuntime([("FixtureProvider", ""), ("FixtureThrowsOnStart", ""), ("FixtureOptional", "")])
        runtime.start()
        defer { runtime.stop() }
        #expect(state(runtime, "FixtureOptional").0 == .active)
        let findings = try runtime.resolver.resolve((any OptionalReportRoute).self).findings
        #expect(findings["GreetingRoute"] == "available")
        #expect(
            findings["AlarmRoute"]
                == "route 'AlarmRoute' is unavailable: 'FixtureThrowsOnStart' failed: threw in start: alarm hardware not found")
        #expect(findings["UnprovidedRoute"] == "route 'UnprovidedRoute' is unavailable: no active module provides it")
        #expect(
            findings["CycleARoute"]
                == "module 'FixtureOptional' resolved 'CycleARoute', which is neither one of its services nor a route it declares in 'requires' or 'uses'"
        )
    }

    @Test(arguments: [
        ("register", "threw in register: register failed on purpose"),
        ("start", "threw in start: start failed on purpose"),
    ])
    func aModuleThatThrowsIsFailedAndItsDependentsSkipped(phase: String, reason: String) throws {
        let runtime = try makeRuntime([
            ("FixtureProvider", #""config": {"failIn": "\#(phase)"}"#), ("FixtureConsumer", ""), ("FixtureOptional", ""),
        ])
        runtime.start()
        defer { runtime.stop() }
        #expect(state(runtime, "FixtureProvider") == (.failed, reason))
        #expect(state(runtime, "FixtureConsumer") == (.skipped, "requires 'GreetingRoute' from 'FixtureProvider', which failed: \(reason)"))
        #expect(state(runtime, "FixtureOptional").0 == .active)
        // Its registrations were withdrawn: the route explains itself instead of half-working.
        let error = #expect(throws: LocatorError.self) { try runtime.resolver.resolve((any GreetingRoute).self) }
        #expect(error?.message == "route 'GreetingRoute' is unavailable: 'FixtureProvider' failed: \(reason)")
        let findings = try runtime.resolver.resolve((any OptionalReportRoute).self).findings
        #expect(findings["GreetingRoute"] == "route 'GreetingRoute' is unavailable: 'FixtureProvider' failed: \(reason)")
    }

    @Test func aBadConfigFailsTheModuleWithTheKey() throws {
        let runtime = try makeRuntime([("FixtureProvider", #""config": {"greeting": 5}"#), ("FixtureConsumer", #""config": {"x": 1}"#)])
        runtime.prepare()
        #expect(state(runtime, "FixtureProvider") == (.failed, "config.greeting is 5; expected text (in quotes)"))
        #expect(
            state(runtime, "FixtureConsumer")
                == (.failed, "config.x is not a setting; this module takes none"))
        #expect(runtime.problems.count == 2)
    }

    @Test func aRequirementOnADisabledModuleSaysSo() throws {
        let runtime = try makeRuntime([("FixtureProvider", #""enabled": false"#), ("FixtureConsumer", "")])
        runtime.start()
        #expect(state(runtime, "FixtureProvider") == (.disabled, "disabled in modules.json"))
        // The disabled provider is named from its library's descriptor, not from a naming convention.
        #expect(
            state(runtime, "FixtureConsumer")
                == (.skipped, "requires 'GreetingRoute', which no active module provides: FixtureProvider is disabled in modules.json"))
    }

    @Test func onlyLoadsTheNamedModulesAndWhatTheyRequire() throws {
        let runtime = try makeRuntime(
            [("FixtureOptional", ""), ("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureThrowsOnStart", "")],
            options: RuntimeOptions(only: ["fixtureconsumer"]))
        runtime.start()
        defer { runtime.stop() }
        #expect(state(runtime, "FixtureConsumer").0 == .active)
        #expect(state(runtime, "FixtureProvider").0 == .active)
        #expect(state(runtime, "FixtureOptional") == (.disabled, "not selected by --only fixtureconsumer"))
        #expect(state(runtime, "FixtureThrowsOnStart") == (.disabled, "not selected by --only fixtureconsumer"))
    }

    @Test func enableAndDisableOverrideTheFileForOneRun() throws {
        let runtime = try makeRuntime(
            [("FixtureProvider", #""enabled": false"#), ("FixtureConsumer", "")],
            options: RuntimeOptions(enable: ["FixtureProvider"], disable: ["FixtureConsumer"]))
        runtime.start()
        defer { runtime.stop() }
        #expect(state(runtime, "FixtureProvider").0 == .active)
        #expect(state(runtime, "FixtureConsumer") == (.disabled, "disabled by --disable"))
    }

    @Test(arguments: [
        (RuntimeOptions(only: ["Nope"]), "--only 'Nope': no module named 'Nope' in 'PATH'; its modules are FixtureProvider"),
        (
            RuntimeOptions(enable: ["FixtureProvidr"]),
            "--enable 'FixtureProvidr': no module named 'FixtureProvidr' in 'PATH'; did you mean 'FixtureProvider'?"
        ),
        (
            RuntimeOptions(enable: ["FixtureProvider"], disable: ["fixtureprovider"]),
            "'fixtureprovider' is both enabled and disabled; pass only one of --enable and --disable"
        ),
    ])
    func badOverridesAreUsageErrors(options: RuntimeOptions, message: String) throws {
        let path = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", "")]))
        let configuration = try ModulesFileDecoder(defaultSearchPath: TestEnvironment.buildFolder).decode(contentsOf: path)
        #expect(throws: RuntimeError(.plain(message.replacingOccurrences(of: "PATH", with: path)))) {
            try HostRuntime(configuration: configuration, options: options)
        }
    }

    @Test func aLibraryMissingFromTheSearchPathsSaysWhereItLooked() throws {
        let runtime = try makeRuntime([("Weather", "")])
        runtime.prepare()
        #expect(
            state(runtime, "Weather")
                == (
                    .failed,
                    "library 'libWeather.so' was not found in the search paths ('\(TestEnvironment.buildFolder)'); set 'library' in modules.json to the path of its libWeather.so"
                ))
    }

    @Test func aDisabledModuleNamedLikeTheRouteIsNotTakenForItsProvider() throws {
        // FixtureNeedsNobody requires UnprovidedRoute; a disabled module named "Unprovided" has
        // no library that provides it, so the reason names nobody.
        let runtime = try makeRuntime([("FixtureNeedsNobody", ""), ("Unprovided", #""enabled": false"#)])
        runtime.prepare()
        #expect(
            state(runtime, "FixtureNeedsNobody")
                == (.skipped, "requires 'UnprovidedRoute', which no active module provides"))
    }

    @Test func stopRunsInReverseStartOrderOnce() throws {
        let lines = Mutex<[String]>([])
        let path = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureConsumer", ""), ("FixtureProvider", "")]))
        let configuration = try ModulesFileDecoder(defaultSearchPath: TestEnvironment.buildFolder).decode(contentsOf: path)
        let runtime = try HostRuntime(
            configuration: configuration, options: RuntimeOptions(logLevel: .info, dataFolder: try TestEnvironment.temporaryFolder()),
            locator: ServiceLocator(),
            logSink: { line in lines.withLock { $0.append(line) } })
        runtime.start()
        runtime.stop()
        runtime.stop()
        #expect(
            lines.withLock { $0 } == [
                "modhost: info: FixtureProvider: started\n", "modhost: info: FixtureConsumer: started\n",
                "modhost: info: FixtureConsumer: stopped\n", "modhost: info: FixtureProvider: stopped\n",
            ])
    }

    @Test func theHostProvidesItsInfoRoute() throws {
        let runtime = try makeRuntime([("FixtureProvider", ""), ("FixtureNeedsNobody", "")])
        runtime.start()
        defer { runtime.stop() }
        let info = try runtime.resolver.resolve((any HostInfoRoute).self)
        #expect(info.hostVersion == HostRuntime.version)
        #expect(info.environment == "test")
        #expect(
            info.modules == [
                ModuleStatus(name: "FixtureProvider", state: .active, reason: nil, version: "1.2.3"),
                ModuleStatus(
                    name: "FixtureNeedsNobody", state: .skipped,
                    reason: "requires 'UnprovidedRoute', which no active module provides", version: "1.0.0"),
            ])
    }

    @Test func routesListProviderAndConsumers() throws {
        let runtime = try makeRuntime([("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureOptional", "")])
        runtime.prepare()
        let greeting = runtime.routes.first { $0.route == "GreetingRoute" }
        #expect(
            greeting
                == RouteReport(
                    route: "GreetingRoute", provider: "FixtureProvider",
                    consumers: ["FixtureConsumer (requires)", "FixtureOptional (uses)"]))
        #expect(runtime.routes.first { $0.route == "UnprovidedRoute" }?.provider == nil)
        #expect(runtime.routes.first { $0.route == "HostInfoRoute" }?.provider == "modhost")
    }

    @Test func moduleCommandsAreListedForActiveModulesOnly() throws {
        let runtime = try makeRuntime([("FixtureProvider", #""enabled": false"#), ("FixtureConsumer", ""), ("FixtureOptional", "")])
        runtime.start()
        defer { runtime.stop() }
        #expect(runtime.commands.map(\.module) == ["FixtureOptional"])
        #expect(runtime.commands.first?.commands.isEmpty == true)
    }
}

/// The runtime's phases run module code outside its lock.
@Suite struct RuntimePhaseTests {
    @Test func whileAModuleBlocksInStartTheRuntimeStillAnswersAndStopWaitsForNothing() throws {
        // FixtureMisbehaves never returns from start; the thread that starts it stays blocked
        // for the rest of this test process (the watchdog is the executable's, not the tests').
        let runtime = try makeRuntime([("FixtureProvider", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "block"}"#)])
        let thread = Thread { runtime.start() }
        thread.start()
        // Wait until the start phase is under way (it never ends: the module blocks).
        let deadline = Date().addingTimeInterval(60)
        while !runtime.state.withLock({ $0.busy && $0.stage.reached == .loaded }), Date() < deadline { usleep(10_000) }
        #expect(runtime.state.withLock { $0.busy && $0.stage.reached == .loaded })
        #expect(state(runtime, "FixtureProvider").0 == .active)
        #expect(runtime.routes.contains { $0.route == "GreetingRoute" })
        runtime.stop()  // returns: the start phase holds no lock while the module blocks
        #expect(runtime.problems.isEmpty)
        #expect(runtime.state.withLock { $0.busy }, "start is still blocked in the module")
    }

    @Test func thePhasesRunOnceAndInOrderWhateverIsAsked() throws {
        let runtime = try makeRuntime([("FixtureProvider", "")])
        runtime.stop()  // before start: nothing to stop
        runtime.planOnly()
        #expect(state(runtime, "FixtureProvider").0 == .active)
        runtime.start()
        runtime.start()
        runtime.prepare()  // already past it: nothing happens
        let greeting = try runtime.resolver.resolve((any GreetingRoute).self)
        #expect(greeting.greet("Ann") == "Hello, Ann!")
        runtime.stop()
        runtime.stop()
    }
}

/// The breadcrumb a terminal is lent with, as the borrowing process says it: the host's Home
/// step in the language chosen there, every other step as lent, and no more than a screen
/// shows whatever another process sends.
@Suite struct LentTrailTests {
    func hostStrings(_ language: String) throws -> ModuleStrings {
        let folder = TestEnvironment.buildFolder + "/ModuleHost_HostModel.resources/Strings"
        let locale = LocaleSetting(environment: ["LANG": language])
        #expect(locale.current == language.prefix { $0.isLetter })
        return try ModuleStrings.loadEveryLocale(module: "modhost", from: folder, locale: locale)
    }

    @Test func theHostsStepIsSaidAgainAndOthersAreKeptAsLent() throws {
        let german = try hostStrings("de")
        let lent = LentTerminal(
            fullScreen: true, typedAhead: [], trail: ["Home", "Photos", "Goodbye"], trailKeys: ["home.title", nil, "app.goodbye"])
        // Only the keys of the host's screen titles are honoured: a lender cannot have another of
        // the host's strings shown as a step.
        #expect(lent.trail(in: german, honouring: ["home.title"]) == ["Start", "Photos", "Goodbye"])
        #expect(lent.trail(in: german, honouring: []) == ["Home", "Photos", "Goodbye"])
        // Keys shorter or longer than the steps, or one the strings lack: the step as lent.
        let ragged = LentTerminal(fullScreen: true, typedAhead: [], trail: ["Home", "x"], trailKeys: ["no.such.key"])
        #expect(ragged.trail(in: german, honouring: ["no.such.key"]) == ["Home", "x"])
        let pseudo = try hostStrings("qps-ploc")
        #expect(ragged.trail(in: pseudo, honouring: ["no.such.key"]) == ["Home", "x"])
        #expect(
            LentTerminal(fullScreen: true, typedAhead: [], trail: ["Home"], trailKeys: ["home.title", "home.title"])
                .trail(in: german, honouring: ["home.title"]) == ["Start"])
    }

    @Test func aLongTrailIsCutBeforeAnyStepIsLookedUp() throws {
        let steps = Array(repeating: "Home", count: 100_000)
        let lent = LentTerminal(fullScreen: true, typedAhead: [], trail: steps, trailKeys: steps.map { _ in "home.title" })
        #expect(lent.trail(in: try hostStrings("de"), honouring: ["home.title"]) == Array(repeating: "Start", count: 16))
    }
}
