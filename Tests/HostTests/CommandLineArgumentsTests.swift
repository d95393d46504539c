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
        #expect(parsed.command as? Builtins.Modules == Builtins.Modules(json: true))
    }

    @Test func theHostWasBuiltAgainstTheKitItLoaded() {
        #expect(ModhostCommandLine.kitMismatch() == nil)
        #expect(ModuleKitABI.compiledSDKVersion.description == ModuleKitABI.sdkVersion)
    }

    @Test func noCommandRunsTheApp() throws {
        #expect(try CommandLineArguments.parse([]).command is Builtins.App)
        #expect(try CommandLineArguments.parse(["--help"]).command as? Builtins.Help == Builtins.Help())
        #expect(try CommandLineArguments.parse(["-h"]).command as? Builtins.Help == Builtins.Help())
        #expect(try CommandLineArguments.parse(["geo", "--help"]).command as? Builtins.Help == Builtins.Help(topic: "geo"))
        #expect(try CommandLineArguments.parse(["check", "--help"]).command as? Builtins.Help == Builtins.Help(topic: "check"))
        #expect(try CommandLineArguments.parse(["--version"]).version)
    }

    @Test func moduleCommandArgumentsPassThroughUntouched() throws {
        let parsed = try CommandLineArguments.parse(["--log-level", "info", "auth", "register", "--email", "a@b.c", "--help"])
        #expect(
            parsed.command as? Builtins.OfModule
                == Builtins.OfModule(module: "auth", command: "register", arguments: ["--email", "a@b.c", "--help"]))
        #expect(!parsed.help, "--help after a module command belongs to the module")
        #expect(try CommandLineArguments.parse(["geo"]).command as? Builtins.OfModule == Builtins.OfModule(module: "geo"))
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
        let all = CommandLineTable.options + CommandLineTable.commands.flatMap(\.options)
        #expect(Set(all.map(\.id)).count == all.count, "one declaration per option")
        // A spelling means one thing where it can be given: globally, or in one command.
        for command in CommandLineTable.commands {
            let names = (CommandLineTable.options + command.options).flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command.id)")
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
    func everyCommandParsesFromItsUsage(command: Builtin) throws {
        #expect(command.usage.split(separator: " ").first.map(String.init) == command.word)
        let parsed = try CommandLineArguments.parse(Self.sampleLine(command.usage))
        #expect(parsed.declaration.id == command.id, "'\(command.usage)' parses as '\(parsed.declaration.usage)'")
    }

    /// A command line a usage line describes: placeholders filled in, optional parts
    /// ("[--json]", "[-- ARGS...]") left out.
    static func sampleLine(_ usage: String) -> [String] {
        usage.split(separator: " ").map(String.init).filter { !$0.hasPrefix("[") && !$0.hasSuffix("]") }.map {
            $0 == "SHELL" ? "bash" : $0 == $0.uppercased() && $0 != "--" ? "X" : $0
        }
    }

    /// Every command `--help` lists, and every option, has its summary in each of the host's
    /// languages (the help would fall back to English without a word): a command declared
    /// without its strings fails here.
    @Test func everyListedCommandAndOptionHasItsHelpString() throws {
        let folder = TestEnvironment.buildFolder + "/ModuleHost_HostModel.resources/Strings"
        let tables = try ModuleStrings.loadEveryLocale(module: "modhost", from: folder, locale: LocaleSetting(environment: [:])).tables
        let listed = CommandLineTable.commands.filter { !$0.hidden }
        let keys =
            listed.map { "help.command." + $0.id } + (CommandLineTable.options + listed.flatMap(\.options)).map { "help.option." + $0.id }
        #expect(Set(tables.keys) == Set(ModuleStrings.shippedLocales))
        for (language, table) in tables {
            for key in keys { #expect(table[key] != nil, "\(language): \(key) is missing") }
        }
    }

    /// Every declaration makes a command of its own kind, and that command has a handler: it
    /// runs without modules, in a session, or both (`help`).
    @Test(arguments: CommandLineTable.commands)
    func everyDeclaredCommandHasItsHandler(command: Builtin) throws {
        // The words after its own, from its usage line; a row without a word of its own names a module.
        let rest = command.word == nil ? ["geo"] : Array(Self.sampleLine(command.usage).dropFirst())
        let made = try command.make(rest, .init())
        #expect(type(of: made).declaration.id == command.id || command.id == "module.help", "\(command.id)")
        #expect(made.withoutModules != nil || made.inSession != nil, "\(command.id) has no handler")
        // Each handler the command's type has is the one the dispatcher finds.
        #expect((made.withoutModules != nil) == (made is any CommandWithoutModules), "\(command.id)")
        #expect((made.inSession != nil) == (made is any CommandInSession), "\(command.id)")
    }

    @Test func aCommandsOwnOptionsAreKnownOnlyThere() throws {
        #expect(try CommandLineArguments.parse(["modules", "--json"]).command as? Builtins.Modules == Builtins.Modules(json: true))
        #expect(
            try CommandLineArguments.parse(["new", "Notes", "--output", "/tmp/n", "--kit", "/k", "--route"]).command as? Builtins.New
                == Builtins.New(name: "Notes", output: "/tmp/n", kit: "/k", route: true))
        #expect(try CommandLineArguments.parse(["graph", "--format=dot"]).command as? Builtins.Graph == Builtins.Graph(format: .dot))
        #expect(throws: UsageError("'graph --format' takes text, dot or svg, found 'png'")) {
            try CommandLineArguments.parse(["graph", "--format", "png"])
        }
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
