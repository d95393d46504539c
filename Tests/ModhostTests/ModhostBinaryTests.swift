import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Runs the real `modhost` executable from the build folder, as an operator would.
func modhost(_ arguments: [String], input: String = "", environment: [String: String] = [:], in folder: String? = nil) throws
    -> ProcessResult
{
    try ChildProcess.run(TestEnvironment.modhost, arguments, input: input, environment: environment, currentDirectory: folder)
}

/// Each module's "state: reason" from `modhost ARGUMENTS modules --json`.
func moduleStates(_ arguments: [String]) throws -> [String: String] {
    let result = try modhost(arguments + ["modules", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let modules = report?["modules"] as? [[String: Any]] ?? []
    return modules.reduce(into: [:]) { states, module in
        states[module["name"] as? String ?? "?"] = "\(module["state"] as? String ?? "?"): \(module["reason"] as? String ?? "")"
    }
}

func config(_ modules: [(String, String)]) throws -> String {
    try TestEnvironment.write(TestEnvironment.modulesJSON(modules))
}

/// The operator's command line: modules.json given with `--config`, found in the current
/// folder or missing, as an operator points modhost at it; a ModuleHostTesting world decides
/// that itself, so these run the binary through TestSupport's ChildProcess.
@Suite struct ModhostBinaryTests {
    @Test func modulesListsStatesReasonsAndRoutes() throws {
        let path = try config([
            ("FixtureProvider", ""), ("FixtureNeedsNobody", ""), ("FixtureThrowsOnStart", ""), ("Geo", #""enabled": false"#),
        ])
        let result = try modhost(["--config", path, "modules"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                MODULE               STATE    VERSION PROVIDES      REQUIRES        USES
                FixtureProvider      active   1.2.3   GreetingRoute -               -
                FixtureNeedsNobody   skipped  1.0.0   -             UnprovidedRoute -
                    reason: requires 'UnprovidedRoute', which no active module provides
                FixtureThrowsOnStart failed   1.0.0   AlarmRoute    -               -
                    reason: threw in start: alarm hardware not found
                Geo                  disabled 1.0.0   GeoRoute      -               SettingsRoute
                    note: disabled in modules.json

                """)
    }

    @Test func modulesJSONIsStable() throws {
        let path = try config([("FixtureConsumer", ""), ("Geo", #""enabled": false"#)])
        let result = try modhost(["modules", "--json"], environment: ["MODHOST_CONFIG": path])
        #expect(result.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(document?["schemaVersion"] as? Int == 1)
        #expect(document?["environment"] as? String == "test")
        #expect(document?["configuration"] as? String == path)
        let modules = document?["modules"] as? [[String: Any]] ?? []
        #expect(modules.count == 2)
        #expect(
            Set(modules[0].keys) == [
                "name", "state", "reason", "version", "sdk", "library", "sha256", "provides", "requires", "uses", "timing", "isolation",
                "processID", "capabilities",
            ])
        #expect(modules[0]["isolation"] as? String == "none")
        #expect(modules[0]["processID"] is NSNull)
        #expect(modules[0]["timing"] is NSNull, "without --timing")
        #expect(document?["startMilliseconds"] is NSNull)
        #expect(modules[0]["sdk"] as? String == (try HostileLibrary.buildRecord().sdk))
        #expect((modules[0]["sha256"] as? String)?.count == 64)
        #expect(modules[0]["name"] as? String == "FixtureConsumer")
        #expect(modules[0]["state"] as? String == "skipped")
        #expect(modules[0]["reason"] as? String == "requires 'GreetingRoute', which no active module provides")
        #expect(modules[0]["version"] as? String == "0.9.0")
        #expect(modules[0]["library"] as? String == TestEnvironment.library("FixtureConsumer"))
        #expect(modules[0]["provides"] as? [String] == ["ConsumerReportRoute"])
        #expect(modules[0]["requires"] as? [String] == ["GreetingRoute"])
        #expect(modules[0]["uses"] as? [String] == [])
        #expect(modules[1]["state"] as? String == "disabled")
        // Read from its descriptor, as for a module that failed: only its library is not named.
        #expect(modules[1]["version"] as? String == "1.0.0")
        #expect(modules[1]["provides"] as? [String] == ["GeoRoute"])
        #expect(modules[1]["library"] is NSNull)
    }

    @Test func checkPassesOnAGoodFile() throws {
        let path = try config([("FixtureProvider", ""), ("FixtureConsumer", ""), ("Geo", #""enabled": false"#)])
        let result = try modhost(["--config", path, "check"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("'\(path)' is valid: 2 modules ready, 1 disabled\nEvery shipped language is valid ("))
        #expect(result.stderr == "")
    }

    @Test func checkNamesARouteUnderTwoIdentitiesWithBothLibraries() throws {
        let path = try config([("FixtureSplitProvider", ""), ("FixtureSplitConsumer", "")])
        let result = try modhost(["--config", path, "check"])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "modhost: error: '\(path)': modules[1] ('FixtureSplitConsumer'): route 'SplitRoute' has two identities in this process: libFixtureSplitConsumer.so and libFixtureSplitProvider.so (from 'FixtureSplitProvider') each carry their own copy of the protocol (its contracts target is linked statically into both); move 'SplitRoute' into a package whose library product is 'type: .dynamic', depend on that product from both modules, and rebuild both"
            ])
    }

    @Test func checkPrintsOneLinePerProblemWithoutStartingAnything() throws {
        let path = try config([
            ("FixtureThrowsOnStart", ""), ("FixtureCycleA", ""), ("FixtureCycleB", ""), ("BrokenWrongABI", ""),
            ("FixtureProvider", #""library": "nowhere/libFixtureProvider.so""#),
        ])
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let result = try modhost(["--config", path, "check", "--log-level", "trace"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.errorLines == [
                "modhost: error: '\(path)': modules[1] ('FixtureCycleA'): dependency cycle: FixtureCycleA → FixtureCycleB → FixtureCycleA",
                "modhost: error: '\(path)': modules[2] ('FixtureCycleB'): dependency cycle: FixtureCycleB → FixtureCycleA → FixtureCycleB",
                "modhost: error: '\(path)': modules[3] ('BrokenWrongABI'): library '\(TestEnvironment.library("BrokenWrongABI"))' was built against SDK 0.0.0; this host has SDK \(try HostileLibrary.buildRecord().sdk): a module runs only in a host of the SDK major it was built against (0.x): rebuild the module against this host's kit; this host's kit is '\(TestEnvironment.repository)/Sources/ModuleKit' (the 'let kit' line of the module's Package.swift names the kit it builds against); in this checkout: 'swift build --product BrokenWrongABI'",
                "modhost: error: '\(path)': modules[4] ('FixtureProvider'): library '\(folder)/nowhere/libFixtureProvider.so' does not exist; build it (in its package: 'swift build --product FixtureProvider') or correct the path",
            ])
        // FixtureThrowsOnStart is fine to check: only starting it fails.
    }

    @Test(arguments: [
        (
            #"{"modules": [{"name": "Geo", "enabeld": true}]}"#,
            [
                "modules[0] ('Geo'): unknown key 'enabeld'; did you mean 'enabled'?",
                "modules[0] ('Geo'): 'enabled' is missing: add \"enabled\": true or false",
            ]
        ),
        ("{\"modules\": [", ["is not valid JSON: line 1, column 14: unexpected end of file; expected a value"]),
        (
            #"{"environment": "live", "modules": []}"#,
            [
                "unknown environment 'live'; use one of development, test, stage, production"
            ]
        ),
    ])
    func aBrokenModulesFileFailsEveryCommandClearly(json: String, problems: [String]) throws {
        let path = try TestEnvironment.write(json)
        for command in [["check"], ["modules"], ["routes"], []] {
            let result = try modhost(["--config", path] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stdout == "")
            #expect(result.errorLines == problems.map { "modhost: error: '\(path)': \($0)" })
        }
    }

    @Test func aMissingModulesFileSaysHowToPointElsewhere() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let result = try modhost(["modules"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: 'modules.json': does not exist; pass another file with --config PATH or MODHOST_CONFIG\n")
    }

    @Test func readsModulesJSONFromTheCurrentFolderByDefault() throws {
        let path = try config([("FixtureProvider", "")])
        let result = try modhost(["check"], in: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("'modules.json' is valid: 1 module ready, 0 disabled\n"))
    }

    @Test(arguments: [
        (["--frobnicate"], "modhost: error: unknown option '--frobnicate'; see 'modhost --help'\n"),
        (["--log-level"], "modhost: error: option '--log-level' needs a value\n"),
        (
            ["--enable", "Nope", "modules"],
            "modhost: error: --enable 'Nope': no module named 'Nope' in 'PATH'; its modules are FixtureProvider\n"
        ),
        (
            ["fixtureprovidr", "greet"],
            "modhost: error: unknown command 'fixtureprovidr'; did you mean 'fixtureprovider'? See 'modhost --help'\n"
        ),
        (["fixtureprovider"], "modhost: error: 'fixtureprovider' needs a command: 'greet'; see 'modhost fixtureprovider --help'\n"),
        (
            ["fixtureprovider", "gret"],
            "modhost: error: module 'FixtureProvider' has no command 'gret'; did you mean 'greet'? It has: 'greet'\n"
        ),
        (
            ["fixtureprovider", "greet"],
            "modhost: error: fixtureprovider greet: greet takes exactly one NAME\nUsage: modhost fixtureprovider greet NAME\nSee 'modhost fixtureprovider greet --help'.\n"
        ),
    ])
    func badUsageExitsTwo(arguments: [String], message: String) throws {
        let path = try config([("FixtureProvider", "")])
        let result = try modhost(["--config", path] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message.replacingOccurrences(of: "PATH", with: path))
    }

    @Test func runsAModuleCommand() throws {
        let path = try config([("FixtureProvider", #""config": {"greeting": "Ciao"}"#), ("FixtureConsumer", "")])
        let greet = try modhost(["--config", path, "fixtureprovider", "greet", "Ann"])
        #expect(greet.status == 0)
        #expect(greet.stdout == "Ciao, Ann!\n")
        #expect(greet.stderr == "")
        let report = try modhost(["--config", path, "FixtureConsumer", "report"])
        #expect(report.stdout == "Ciao, consumer!\n")
    }

    @Test func aCommandOfAnInactiveModuleExplainsWhy() throws {
        let path = try config([("FixtureProvider", #""enabled": false"#), ("FixtureConsumer", "")])
        let result = try modhost(["--config", path, "fixtureconsumer", "report"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: module 'FixtureConsumer' is not active: it was skipped: requires 'GreetingRoute', which no active module provides: FixtureProvider is disabled in modules.json\n"
        )
    }

    @Test func aCommandOfADisabledModuleSaysHowToEnableIt() throws {
        let path = try config([("FixtureProvider", #""enabled": false"#)])
        let result = try modhost(["--config", path, "fixtureprovider", "greet", "Ann"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: module 'FixtureProvider' is not active: disabled in modules.json; enable it in modules.json or with --enable FixtureProvider\n"
        )
        let enabled = try modhost(["--config", path, "--enable", "FixtureProvider", "fixtureprovider", "greet", "Ann"])
        #expect(enabled.stdout == "Hello, Ann!\n")
    }

    @Test func helpListsModulesFromTheirDescriptorsAndAModuleItsCommands() throws {
        // The aborting library would kill --help if help ran any module code.
        let path = try config([("FixtureProvider", ""), ("FixtureConsumer", ""), ("HostileAbortInConstructor", "")])
        let all = try modhost(["--config", path, "--help"])
        #expect(all.status == 0)
        #expect(all.stdout.contains("USAGE: modhost [OPTIONS] [COMMAND]"))
        #expect(all.stdout.contains("  fixtureprovider            active 1.2.3\n"))
        #expect(all.stdout.contains("  fixtureconsumer            active 0.9.0\n"))
        #expect(all.stdout.contains("  hostileabortinconstructor  failed\n"))
        let withoutProvider = try modhost(["--config", path, "--disable", "FixtureProvider", "--help"])
        #expect(withoutProvider.stdout.contains("  fixtureconsumer            skipped 0.9.0\n"))
        let module = try modhost(["--config", path, "--disable", "HostileAbortInConstructor", "fixtureprovider", "--help"])
        #expect(module.stdout.contains("  modhost fixtureprovider greet NAME\n      Print a greeting\n"))
    }

    @Test func aMisspelledModuleGetsTrueAdvice() throws {
        let path = try config([("Setings", ""), ("Weather", "")])
        let result = try modhost(["--config", path, "check"])
        #expect(result.status == 1)
        let folder = TestEnvironment.buildFolder
        #expect(
            result.errorLines == [
                "modhost: error: '\(path)': modules[0] ('Setings'): library 'libSetings.so' was not found in the search paths ('\(folder)'); did you mean 'Settings' (libSettings.so is there)? Fix 'name' in modules.json",
                "modhost: error: '\(path)': modules[1] ('Weather'): library 'libWeather.so' was not found in the search paths ('\(folder)'); set 'library' in modules.json to the path of its libWeather.so",
            ])
        #expect(!result.stderr.contains("swift build --product"), "no advice to build a product that does not exist")
    }

    @Test func helpStillWorksWithABrokenModulesFile() throws {
        let path = try TestEnvironment.write("garbage")
        let result = try modhost(["--config", path, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: modhost"))
        #expect(
            result.stderr
                == "modhost: warning: module commands are not listed: '\(path)': is not valid JSON: line 1, column 1: unexpected character 'g'; expected a value\n"
        )
    }

    @Test func routesShowsProvidersAndConsumers() throws {
        let path = try config([("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureNeedsNobody", "")])
        let result = try modhost(["--config", path, "routes"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                ROUTE               PROVIDER        CONSUMERS
                ConsumerReportRoute FixtureConsumer -
                GreetingRoute       FixtureProvider FixtureConsumer (requires)
                HostInfoRoute       modhost         -
                UnprovidedRoute     (none)          FixtureNeedsNobody [skipped] (requires)

                """)
    }

    @Test func runStartsModulesShowsHomeAndStopsThemInReverseAtEndOfInput() throws {
        let path = try config([("FixtureConsumer", ""), ("FixtureProvider", ""), ("FixtureThrowsOnStart", "")])
        let result = try modhost(["--config", path, "--log-level", "info"], input: "")
        #expect(result.status == 0)
        #expect(
            result.stdout == """

                Home
                ====
                  2. Greeting
                  q Quit
                Which one? 
                Goodbye.

                """)
        #expect(
            result.errorLines == [
                "modhost: info: FixtureProvider: started",
                "modhost: info: FixtureConsumer: started",
                "modhost: error: module 'FixtureThrowsOnStart': threw in start: alarm hardware not found",
                "modhost: info: FixtureConsumer: stopped",
                "modhost: info: FixtureProvider: stopped",
            ])
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalStopsModulesInReverseOrder(signal: Int32, status: Int32) throws {
        let path = try config([("FixtureConsumer", ""), ("FixtureProvider", "")])
        let process = try ChildProcess.start(TestEnvironment.modhost, ["--config", path, "--log-level", "info"])
        try process.waitForOutput(containing: "Which one?")
        process.send(signal)
        let result = try process.wait()
        #expect(result.status == status)
        #expect(
            result.errorLines == [
                "modhost: info: FixtureProvider: started",
                "modhost: info: FixtureConsumer: started",
                "modhost: info: FixtureConsumer: stopped",
                "modhost: info: FixtureProvider: stopped",
            ])
    }

    @Test func homeListsTheEntriesOfActiveModulesOnly() throws {
        let path = try config([("FixtureProvider", #""config": {"greeting": "Hi"}"#)])
        let result = try modhost(["--config", path], input: "1\nq\n")
        #expect(result.stdout.contains("Home\n====\n  1. Greeting\n  q Quit\n"))
        #expect(result.stdout.contains("Hi, you!\n"))
        #expect(result.stdout.hasSuffix("Goodbye.\n"))
        let disabled = try modhost(["--config", path, "--disable", "FixtureProvider"], input: "")
        #expect(!disabled.stdout.contains("Greeting"))
        #expect(disabled.stdout.contains("Home\n====\nNo module adds anything here yet.\n  q Quit\n"))
    }

    @Test func colourOnATerminalUnlessNoColor() throws {
        let path = try config([])
        let command = "\(TestEnvironment.modhost) --config \(path)"
        // `swift test` itself sets NO_COLOR for its children; a person's terminal does not.
        let tty = try TerminalProcess.start(command, unsetting: ["NO_COLOR"])
        try tty.waitFor("Which one?")
        #expect(tty.screen.attributes(of: "Home")?.contains(.bold) == true, "\(tty.output)")
        tty.enter("q")
        _ = try tty.waitForExit()
        let plain = try TerminalProcess.start(command, environment: ["NO_COLOR": "1"])
        try plain.waitFor("Which one?")
        #expect(plain.screen.attributes(of: "Home") == [])
        plain.enter("q")
        _ = try plain.waitForExit()
        #expect(!plain.output.contains("\u{1B}["))
    }

    @Test func garbageOnStandardInputDoesNotUpsetTheHost() throws {
        let path = try config([("FixtureProvider", "")])
        let garbage = String(repeating: "x", count: 1_000_000) + "\n\u{0}\u{7F}'; DROP TABLE modules; --\n"
        let result = try modhost(["--config", path], input: garbage)
        #expect(result.status == 0)
        #expect(result.stdout.contains("! Please answer with one of: 1, q."))
        #expect(result.stdout.hasSuffix("Goodbye.\n"))
    }
}
