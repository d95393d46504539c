import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Help on every command, in every language, within 80 columns: `modhost <module> --help`
/// lists a module's commands, `modhost <module> <command> --help` shows one.
@Suite struct CommandHelpTests {
    static let modules = ["auth", "geo", "photos", "settings"]
    static let languages = [
        ("en_US.UTF-8", "Usage:", "Example:"), ("es_ES.UTF-8", "Uso:", "Ejemplo:"), ("fr_FR.UTF-8", "Utilisation :", "Exemple :"),
        ("de_DE.UTF-8", "Aufruf:", "Beispiel:"), ("it_IT.UTF-8", "Uso:", "Esempio:"), ("el_GR.UTF-8", "Χρήση:", "Παράδειγμα:"),
    ]

    func help(_ arguments: [String], language: String) throws -> CommandResult {
        let host = try TestHost(
            entries: [("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")],
            environment: ["LANG": language])
        return try host.run(arguments: arguments + ["--help"])
    }

    @Test(arguments: modules)
    func everyCommandHasUsageOptionsAndAnExampleInEveryLanguage(module: String) throws {
        let list = try help([module], language: "en_US.UTF-8")
        #expect(list.status == 0)
        let commands = list.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.count >= 3 && words[0] == "modhost" && words[1] == module ? String(words[2]) : nil
        }
        #expect(commands.count >= 3, "\(list.stdout)")
        for (language, usage, example) in Self.languages {
            let listed = try help([module], language: language)
            #expect(listed.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(language): \(listed.stdout)")
            for command in commands {
                let result = try help([module, command], language: language)
                #expect(result.status == 0, "\(module) \(command) --help: \(result.stderr)")
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.first?.hasPrefix("\(usage) modhost \(module) \(command)") == true, "\(language): \(result.stdout)")
                #expect(lines.contains { $0 == example[...] }, "\(language) \(module) \(command): no example")
                #expect(lines.contains { $0.hasPrefix("  modhost \(module) \(command)") }, "the example runs this command")
                #expect(lines.allSatisfy { $0.count <= 80 }, "\(language) \(module) \(command): wider than 80 columns")
            }
        }
    }

    /// Every built-in command has its help, with its usage, summary, options and a working
    /// example, the same through `--help` and `help`, and without a modules.json for it.
    @Test func everyBuiltInCommandHasItsHelp() throws {
        let folder = try TestEnvironment.temporaryFolder()
        for command in ["modules", "check", "routes", "bisect", "new", "dev", "help", "completion", "manual"] {
            let asked = try modhost([command, "--help"], in: folder)
            #expect(asked.status == 0, "\(command): \(asked.stderr)")
            #expect(asked.stderr == "", "no modules.json is needed for it: \(asked.stderr)")
            let lines = asked.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first?.hasPrefix("Usage: modhost \(command)") == true, "\(asked.stdout)")
            #expect(
                lines.contains("Example:") && lines.contains { $0.hasPrefix("  ") && $0.contains("modhost ") },
                "\(command): \(asked.stdout)")
            #expect(lines.allSatisfy { $0.count <= 80 })
            #expect(try modhost(["help", command], in: folder).stdout == asked.stdout, "help \(command) is \(command) --help")
        }
        let new = try modhost(["new", "--help"], in: folder).stdout
        #expect(new.contains("Options:\n  --output DIR  Where to write the package\n  --kit DIR     The kit package to build against\n"))
        let bisect = try modhost(["bisect", "--help"], in: folder).stdout
        #expect(bisect.contains("  --keep NAME  Keep this module in every try (repeatable, or A,B)\n"))
        // The host's own help, and a module's, through `help` too.
        let host = try TestHost(entries: [("Geo", "")])
        #expect(try host.run("help").stdout == (try host.run("--help").stdout))
        #expect(try host.run("help", "geo").stdout == (try host.run("geo", "--help").stdout))
        #expect(try host.run("help", "geo").stdout.hasPrefix("Usage: modhost geo <command> ..."))
    }

    @Test func optionsAreExplained() throws {
        let result = try help(["geo", "add"], language: "en_US.UTF-8")
        #expect(
            result.stdout == """
                Usage: modhost geo add [--country C] --city NAME

                Save a city

                Options:
                  --country C  The country, by name or code (default: the setting
                               geo.defaultCountry)
                  --city NAME  The city’s name

                Example:
                  modhost geo add --country FR --city Lyon

                """)
    }

    @Test func aUsageErrorPointsToTheCommandsHelp() throws {
        let result = try TestHost(entries: [("Geo", "")]).run("geo", "add", "--town", "X")
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("Usage: modhost geo add [--country C] --city NAME\nSee 'modhost geo add --help'.\n"))
    }

    @Test func commandErrorsAreInThePersonsLanguageAndEnglishWithLCALLC() throws {
        let host = try TestHost(entries: [("Geo", "")])
        func run(_ environment: [String: String]) throws -> CommandResult {
            try host.run(arguments: ["geo", "add", "--town", "X"], environment: environment)
        }
        #expect(
            try run(["LANG": "de_DE.UTF-8"]).stderr
                == "modhost: Fehler: geo add: unbekannte Option '--town'; dieser Befehl kennt --city, --country\n"
                + "Aufruf: modhost geo add [--country C] --city NAME\nSiehe 'modhost geo add --help'.\n")
        #expect(
            try run(["LANG": "de_DE.UTF-8", "LC_ALL": "C"]).stderr
                == "modhost: error: geo add: unknown option '--town'; this command takes --city, --country\n"
                + "Usage: modhost geo add [--country C] --city NAME\nSee 'modhost geo add --help'.\n")
    }

    @Test func theHostsOwnUsageErrorsAreInThePersonsLanguageToo() throws {
        func run(_ environment: [String: String]) throws -> ProcessResult {
            try ChildProcess.run(
                TestEnvironment.modhost, ["--confi", "x"], environment: environment,
                unsetting: environment["LC_ALL"] == nil ? ["LC_ALL", "LC_MESSAGES"] : ["LC_MESSAGES"])
        }
        let french = try run(["LANG": "fr_FR.UTF-8"])
        #expect(french.status == 2)
        #expect(french.stderr == "modhost: erreur: option inconnue '--confi' ; vouliez-vous dire '--config' ? Voir 'modhost --help'\n")
        #expect(
            try run(["LANG": "fr_FR.UTF-8", "LC_ALL": "C"]).stderr
                == "modhost: error: unknown option '--confi'; did you mean '--config'? See 'modhost --help'\n")
    }

    // What follows runs hand-made modules.json files and libraries on purpose: a world would
    // not write them.
    @Test func modulesFileErrorsAreInThePersonsLanguage() throws {
        let config = try TestEnvironment.write(#"{"modules": [{"name": "Geo", "enabeld": true}], "environment": 3}"#)
        func run(_ environment: [String: String]) throws -> ProcessResult {
            try ChildProcess.run(
                TestEnvironment.modhost, ["--config", config, "modules"], environment: environment,
                unsetting: environment["LC_ALL"] == nil ? ["LC_ALL", "LC_MESSAGES"] : ["LC_MESSAGES"])
        }
        let german = try run(["LANG": "de_DE.UTF-8"])
        #expect(german.status == 1)
        #expect(
            german.errorLines == [
                "modhost: Fehler: '\(config)': 'environment' muss eine Zeichenkette sein, gefunden: 3",
                "modhost: Fehler: '\(config)': modules[0] ('Geo'): unbekannter Schlüssel 'enabeld'; meinten Sie 'enabled'?",
                "modhost: Fehler: '\(config)': modules[0] ('Geo'): 'enabled' fehlt: fügen Sie \"enabled\": true oder false hinzu",
            ])
        #expect(
            try run(["LANG": "de_DE.UTF-8", "LC_ALL": "C"]).errorLines.first
                == "modhost: error: '\(config)': 'environment' must be a string, found 3")
    }

    @Test func theModulesReportAndCheckSpeakThePersonsLanguage() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", #""enabled": false"#)], language: "de")
        let config = host.config
        func run(_ arguments: [String]) throws -> CommandResult { try host.run(arguments: arguments) }
        let report = try run(["modules"])
        #expect(report.stdout.hasPrefix("MODUL    ZUSTAND     VERSION BIETET        BRAUCHT NUTZT\n"), "\(report.stdout)")
        #expect(report.stdout.contains("Geo      aktiv       1.0.0   GeoRoute      -       SettingsRoute\n"))
        #expect(report.stdout.contains("Settings deaktiviert 1.0.0   SettingsRoute -       AuthRoute,HostInfoRoute\n"))
        #expect(report.stdout.contains("    Hinweis: in modules.json deaktiviert\n"))
        let check = try run(["check"]).stdout
        #expect(check.hasPrefix("'\(config)' ist gültig: 1 Modul bereit, 1 deaktiviert\nAlle mitgelieferten Sprachen sind gültig ("))
        // The JSON report stays English: it is for programs.
        #expect(try run(["modules", "--json"]).stdout.contains(#""reason":"disabled in modules.json""#))
    }

    @Test func whyAModuleDidNotStartIsSaidInThePersonsLanguage() throws {
        let host = try TestHost(entries: [("FixtureProvider", #""enabled": false"#), ("FixtureConsumer", "")], language: "de")
        let result = try host.run("fixtureconsumer", "report")
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: Fehler: Modul 'FixtureConsumer' ist nicht aktiv: es wurde übersprungen: braucht 'GreetingRoute', "
                + "das kein aktives Modul bietet: FixtureProvider ist in modules.json deaktiviert\n")
    }

    @Test func aLibraryOthersCanWriteIsRefusedInThePersonsLanguage() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let library = folder + "/libGeo.so"
        try FileManager.default.copyItem(atPath: TestEnvironment.library("Geo"), toPath: library)
        chmod(library, 0o646)
        let config = try TestEnvironment.write(#"{"modules": [{"name": "Geo", "enabled": true, "library": "\#(library)"}]}"#)
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "check"], environment: ["LANG": "fr_FR.UTF-8"],
            unsetting: ["LC_ALL", "LC_MESSAGES"])
        #expect(result.status == 1)
        let line = try #require(result.errorLines.first)
        #expect(
            line.hasPrefix(
                "modhost: erreur: '\(config)' : modules[0] ('Geo') : la bibliothèque '\(library)' est modifiable par les autres (mode 0646, propriétaire "
            ))
        #expect(line.hasSuffix("donc un autre utilisateur pourrait le modifier ; corrigez avec 'chmod go-w \(library)'"))
    }

    @Test func aMisspelledModuleIsExplainedInThePersonsLanguage() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Setings", "")]))
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "check"], environment: ["LANG": "de_DE.UTF-8"],
            unsetting: ["LC_ALL", "LC_MESSAGES"])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "modhost: Fehler: '\(config)': modules[0] ('Setings'): die Bibliothek 'libSetings.so' wurde in den Suchpfaden nicht gefunden "
                    + "('\(TestEnvironment.buildFolder)'); meinten Sie 'Settings' (libSettings.so liegt dort)? "
                    + "Korrigieren Sie 'name' in modules.json"
            ])
    }

    @Test func theHostsHelpFitsEightyColumnsInEveryLanguage() throws {
        for (language, _, _) in Self.languages {
            let result = try help([], language: language)
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(language): \(result.stdout)")
        }
        #expect(try help([], language: "de_DE.UTF-8").stdout.hasPrefix("ÜBERSICHT: modhost lädt die Module"))
        #expect(try help([], language: "en_US.UTF-8").stdout.hasPrefix("OVERVIEW: modhost loads the modules"))
    }
}
