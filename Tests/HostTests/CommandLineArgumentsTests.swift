import ModuleKit
import TestSupport
import Testing

@testable import HostCommandLine

@Suite struct CommandLineArgumentsTests {
    @Test func parsesGlobalOptionsAndCommands() throws {
        let parsed = try CommandLineArguments.parse([
            "--config", "x.json", "--only=Geo,Auth", "--enable", "Photos", "--disable", "Settings", "--log-level", "debug",
            "modules", "--json",
        ])
        #expect(parsed.configPath == "x.json")
        #expect(parsed.only == ["Geo", "Auth"])
        #expect(parsed.enable == ["Photos"])
        #expect(parsed.disable == ["Settings"])
        #expect(parsed.logLevel == .debug)
        #expect(parsed.command == .modules(json: true))
    }

    @Test func theHostWasBuiltAgainstTheKitItLoaded() {
        #expect(ModhostCommandLine.kitMismatch() == nil)
        #expect(ModuleKitABI.compiledSDKVersion.description == ModuleKitABI.sdkVersion)
    }

    @Test func noCommandRunsTheApp() throws {
        #expect(try CommandLineArguments.parse([]).command == .run)
        #expect(try CommandLineArguments.parse(["--help"]).help)
        #expect(try CommandLineArguments.parse(["-h"]).help)
        #expect(try CommandLineArguments.parse(["--version"]).version)
    }

    @Test func moduleCommandArgumentsPassThroughUntouched() throws {
        let parsed = try CommandLineArguments.parse(["--log-level", "info", "auth", "register", "--email", "a@b.c", "--help"])
        #expect(parsed.command == .module(name: "auth", command: "register", arguments: ["--email", "a@b.c", "--help"]))
        #expect(!parsed.help, "--help after a module command belongs to the module")
        #expect(try CommandLineArguments.parse(["geo"]).command == .module(name: "geo", command: nil, arguments: []))
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'; see 'modhost --help'"),
        (["--confg", "x"], "unknown option '--confg'; did you mean '--config'? See 'modhost --help'"),
        (["modules", "--jsn"], "unknown option '--jsn'; did you mean '--json'? See 'modhost --help'"),
        (["check", "--jsn"], "unknown option '--jsn'; did you mean '--json'? See 'modhost --help'"),
        (["--config"], "option '--config' needs a value"),
        (["--config="], "option '--config' needs a non-empty value"),
        (["--only", "Geo,,Auth"], "option '--only' needs module names separated by commas, found 'Geo,,Auth'"),
        (["--log-level", "verbose"], "unknown log level 'verbose'; use one of trace, debug, info, warn, error, critical"),
        (["--log-level", "eror"], "unknown log level 'eror'; use one of trace, debug, info, warn, error, critical; did you mean 'error'?"),
        (["check", "now"], "'check' takes no argument, found 'now'; see 'modhost --help'"),
    ])
    func badUsageIsAClearError(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineArguments.parse(arguments) }
    }
}

/// The option table is the parser's too: every option it lists parses, and nothing else does.
@Suite struct CommandLineTableTests {
    @Test(arguments: CommandLineTable.options.flatMap { option in option.names.map { (option, $0) } })
    func everyOptionInTheTableParses(option: CommandLineTable.Option, name: String) throws {
        let value: [String] = option.value == nil ? [] : [option.value == "LEVEL" ? "info" : "Geo"]
        _ = try CommandLineArguments.parse([name] + value)
    }

    @Test func eachOptionIsDeclaredOnceAndAChildIsGivenWhatChoosesItsModules() throws {
        let all = CommandLineTable.options + CommandLineTable.commandOptions
        #expect(Set(all.map(\.id)).count == all.count, "one declaration per option")
        // A spelling means one thing where it can be given: globally, or in one command.
        for command in CommandLineTable.commands.compactMap(\.word) {
            let names = (CommandLineTable.options + CommandLineTable.commandOptions.filter { $0.command == command }).flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command)")
        }
        #expect(Set(CommandLineTable.commands.map(\.id)).count == CommandLineTable.commands.count)
        let parsed = try CommandLineArguments.parse([
            "--config", "/etc/modhost/modules.json", "--data-dir", "/var/modhost", "--only", "Geo,Auth", "--enable", "Photos",
            "--disable", "Settings", "--module", "/opt/libNotes.so", "--log-level", "debug", "--retry", "Geo", "--no-crash-records",
        ])
        let child = try CommandLineArguments.parse(parsed.childOptions())
        #expect(child.configPath == "/etc/modhost/modules.json")
        #expect(child.dataFolder == "/var/modhost")
        #expect(child.only == ["Geo", "Auth"])
        #expect(child.enable == ["Photos"] && child.disable == ["Settings"])
        #expect(child.extraModules == ["/opt/libNotes.so"])
        #expect(child.logLevel == .debug)
        #expect(child.retry.isEmpty && child.recordsCrashes, "a child decides its own retries and records")
        #expect(try CommandLineArguments.parse([]).childOptions().isEmpty)
        #expect(try CommandLineArguments.parse(parsed.childOptions(omitting: ["only"])).only == nil)
    }

    /// Each built-in command parses from its own usage line into itself, never into a
    /// module's command: the table the help prints is the parser's.
    @Test(arguments: CommandLineTable.commands.filter { $0.word != nil })
    func everyCommandParsesFromItsUsage(command: CommandLineTable.Builtin) throws {
        let words = command.usage.split(separator: " ").map(String.init)
        #expect(words.first == command.word)
        // Placeholders filled in, optional parts ("[--json]", "[-- ARGS...]") left out.
        let line = words.filter { !$0.hasPrefix("[") && !$0.hasSuffix("]") }.map {
            $0 == "SHELL" ? "bash" : $0 == $0.uppercased() && $0 != "--" ? "X" : $0
        }
        let parsed = try CommandLineArguments.parse(line)
        if case .module = parsed.command { Issue.record("'\(command.usage)' parses as a module's command") }
        if case .run = parsed.command { Issue.record("'\(command.usage)' parses as the app") }
    }

    /// Every command and option `--help` lists has its summary in the host's strings (the help
    /// would fall back to English without a word).
    @Test func everyListedCommandAndOptionHasItsHelpString() throws {
        let folder = TestEnvironment.buildFolder + "/ModuleHost_HostModel.resources/Strings"
        let english = try ModuleStrings.load(module: "modhost", from: folder, locale: LocaleSetting(environment: ["LANG": "en_US.UTF-8"]))
        let keys =
            CommandLineTable.commands.filter { !$0.hidden }.map { "help.command." + $0.id }
            + CommandLineTable.options.map { "help.option." + $0.id }
        for key in keys { #expect(english[StringKey(key)] != key, "\(key) is missing") }
    }

    @Test func aCommandsOwnOptionsAreKnownOnlyThere() throws {
        #expect(try CommandLineArguments.parse(["modules", "--json"]).command == .modules(json: true))
        #expect(
            try CommandLineArguments.parse(["new", "Notes", "--output", "/tmp/n", "--kit", "/k", "--route"]).command
                == .new(name: "Notes", output: "/tmp/n", kit: "/k", route: true))
        #expect(throws: UsageError("unknown option '--json'; see 'modhost --help'")) {
            try CommandLineArguments.parse(["routes", "--json"])
        }
    }

    @Test func anOptionNotInTheTableIsRefusedWithTheNearestFromIt() {
        #expect(throws: UsageError("unknown option '--confg'; did you mean '--config'? See 'modhost --help'")) {
            try CommandLineArguments.parse(["--confg", "x"])
        }
    }
}
