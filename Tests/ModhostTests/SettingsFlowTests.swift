import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Settings through the real binary.
@Suite struct SettingsFlowTests {
    /// A world of ModuleHostTesting (English, `LANG=en_US.UTF-8`).
    func app(_ modules: [(String, String)]) throws -> TestHost {
        try TestHost(entries: modules, environment: ["LANG": "en_US.UTF-8"])
    }

    func run(_ app: TestHost, _ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> CommandResult {
        try app.run(arguments: arguments, input: input, environment: environment)
    }

    static let all = [("Auth", ""), ("Photos", #""config": {"perPage": 5}"#), ("Geo", ""), ("Settings", "")]

    @Test func changingTheLanguageChangesAnotherModulesScreen() throws {
        let app = try app(Self.all)
        _ = try run(
            app, ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], input: "secret12!\nsecret12!\n")
        // Home: 2 Photos, 3 Places, 4 Settings (their places in modules.json). Settings → 3
        // Language → 3 Français → 0 Back → q Quit.
        let session = try run(app, [], input: "4\n3\n3\n0\nq\n")
        #expect(session.stdout.contains("  3. Language: English\n"))
        #expect(session.stdout.contains("  3. Français\n"))
        #expect(session.stdout.contains("Langue : Français, enregistré."))
        #expect(session.stdout.contains("  3. Langue : Français\n"))
        // Then back at Home, Geo's entry speaks French; and so do commands, after a restart.
        #expect(session.stdout.contains("Accueil\n=======\n  2. Photos\n  3. Lieux\n  4. Réglages\n"))
        #expect(session.stdout.hasSuffix("Au revoir.\n"))
        #expect(try run(app, ["photos", "search", "city"]).stdout.hasPrefix("Page 1 sur 1 (4 photos)"))
        #expect(try run(app, ["settings", "get", "settings.language"]).stdout == "fr\n")
    }

    @Test func logOutThroughSettingsReturnsToWelcome() throws {
        let app = try app(Self.all)
        _ = try run(
            app, ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], input: "secret12!\nsecret12!\n")
        // Home → 4 Settings → l Log out → 1 Continue → Welcome → q.
        let session = try run(app, [], input: "4\nl\n1\nq\n")
        #expect(session.stdout.contains("Settings\n========\nAnn <ann@example.com>\n  1. My profile: edit display name\n"))
        #expect(session.stdout.contains("  a About · c Check · h Help · l Log out · 0 Back · q Quit\n"))
        #expect(session.stdout.contains("Log out\n=======\nAre you sure you want to log out?\n"))
        #expect(session.stdout.contains("Logged out.\n"))
        #expect(session.stdout.contains("Welcome\n=======\n"))
        #expect(try run(app, ["auth", "whoami"]).status == 1)
    }

    @Test func aContributedSettingIsValidatedPersistsAndVanishesWithItsModule() throws {
        let app = try app(Self.all)
        #expect(try run(app, ["settings", "get", "photos.perPage"]).stdout == "5\n")
        for (value, message) in [
            ("500", "modhost: error: settings set: '500' is not a whole number from 3 to 200.\n"),
            ("many", "modhost: error: settings set: 'many' is not a whole number from 3 to 200.\n"),
        ] {
            let refused = try run(app, ["settings", "set", "photos.perPage", value])
            #expect(refused.status == 1)
            #expect(refused.stderr == message)
        }
        let unknown = try run(app, ["settings", "set", "photos.perPag", "3"])
        #expect(unknown.stderr == "modhost: error: settings set: There is no setting 'photos.perPag'; did you mean 'photos.perPage'?\n")
        #expect(try run(app, ["settings", "set", "photos.perPage", "3"]).stdout == "photos.perPage = 3\n")
        #expect(try run(app, ["photos", "search", "city"]).stdout.hasPrefix("Page 1 of 2 (4 photos)"))
        let list = try run(app, ["settings", "list"]).stdout
        #expect(list.contains("photos.perPage = 3    (Photos per page)\n"))
        let withoutPhotos = try run(app, ["--disable", "Photos", "settings", "list"]).stdout
        #expect(!withoutPhotos.contains("photos."))
        #expect(withoutPhotos.contains("geo.defaultCountry"))
    }

    @Test func theDefaultCountryIsAChoiceStoredAsACodeAndShownInTheCurrentLanguage() throws {
        let app = try app([("Geo", ""), ("Settings", "")])
        // Typed in French, stored as a code: a command in English reads it.
        let set = try run(app, ["settings", "set", "geo.defaultCountry", "Italie"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(set.stdout == "geo.defaultCountry = IT\n")
        #expect(try run(app, ["settings", "get", "geo.defaultCountry"]).stdout == "IT\n")
        #expect(try run(app, ["geo", "add", "--city", "Rome"]).stdout == "Saved Rome in Italy.\n")
        let wrong = try run(app, ["settings", "set", "geo.defaultCountry", "Itly"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "modhost: error: settings set: 'Itly' is not a country. Did you mean: Italy?\n")
        #expect(try run(app, ["settings", "get", "geo.defaultCountry"]).stdout == "IT\n", "the refused value stored nothing")
        // The screen names it in the current language, and takes a name typed there.
        let english = try run(app, [], input: "2\nq\n")
        #expect(english.stdout.contains("  11. Places: Default country: Italy\n"), "\(english.stdout)")
        let french = try run(app, [], input: "2\n11\nAllemagne\n0\nq\n", environment: ["LANG": "fr_FR.UTF-8"])
        #expect(
            french.stdout.contains(
                "Nouvelle valeur pour Pays par défaut (actuellement Italie, par défaut -) ? Pays par défaut : Allemagne, enregistré.\n"),
            "\(french.stdout)")
        #expect(try run(app, ["settings", "get", "geo.defaultCountry"]).stdout == "DE\n")
    }

    @Test func aSettingKeepsItsNumberWhenAnotherModuleIsOff() throws {
        let app = try app([("Auth", #""enabled": false"#)] + Self.all.dropFirst())
        let all = try run(app, [], input: "4\nq\n")
        #expect(all.stdout.contains("  21. Photos: Photos per page: 5\n"))
        #expect(all.stdout.contains("  31. Places: Default country: -\n"))
        let withoutPhotos = try run(app, ["--disable", "Photos"], input: "4\nq\n")
        #expect(!withoutPhotos.stdout.contains("Photos per page"))
        #expect(withoutPhotos.stdout.contains("  31. Places: Default country: -\n"), "\(withoutPhotos.stdout)")
    }

    @Test func aStoredLanguageAppliesUnlessTheRunAsksForAnother() throws {
        let app = try app([("Geo", ""), ("Settings", "")])
        #expect(try run(app, ["settings", "set", "settings.language", "fr"]).status == 0)
        #expect(try run(app, ["geo", "list"]).stdout == "Aucune ville pour l’instant — ajoutez-en une.\n", "stored: French")
        let german = try run(app, ["geo", "list"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(german.stdout == "Noch keine Städte – fügen Sie eine hinzu.\n", "another LANG for one run wins")
        #expect(try run(app, ["geo", "list"], environment: ["LC_ALL": "C"]).stdout == "No cities yet — add one.\n", "LC_ALL=C: English")
        #expect(try run(app, ["geo", "list"]).stdout == "Aucune ville pour l’instant — ajoutez-en une.\n", "and French again")
    }

    @Test func settingsWorksWithAuthDisabled() throws {
        let app = try app([("Auth", #""enabled": false"#), ("Geo", ""), ("Settings", "")])
        // Home: 2 Places, 3 Settings. Settings: a About, h Help, 0 Back (c Check is tested in CheckInTheAppTests); then q.
        let session = try run(app, [], input: "3\na\nh\n0\nq\n")
        #expect(!session.stdout.contains("My profile"))
        #expect(!session.stdout.contains("Log out"))
        #expect(session.stdout.contains("Environment: test"))
        #expect(session.stdout.contains("Data folder: \(app.data)"))
        #expect(session.stdout.contains("  Auth — disabled in modules.json"), "no '-' for an unknown version, the state said once")
        #expect(session.stdout.contains("  Geo (Places) 1.0.0 — active"), "the name the commands use, its title beside it")
        #expect(session.stdout.contains("modhost geo list [--json] — List saved cities by country"))
        #expect(session.stdout.hasSuffix("Goodbye.\n"))
    }
}
