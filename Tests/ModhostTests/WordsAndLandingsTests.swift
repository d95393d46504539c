import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// What the app says and where it lands, as a script drives it through a pipe: one line of
/// feedback for every action and every cancel, back where the action started, and the
/// wording defects a new user met.
@Suite struct WordsAndLandingsTests {
    /// Every shipped module, Ann E. registered (the app opens on Home: 2 Photos, 3 Places,
    /// 4 Settings).
    func world() throws -> TestHost {
        let host = try TestHost(entries: [("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
        let register = try host.run(
            arguments: ["auth", "register", "--email", "ann@example.com", "--name", "Ann E.", "--password-stdin"],
            input: "secret12!\nsecret12!\n")
        #expect(register.succeeded, "\(register)")
        #expect(register.stdout == "Account created. Welcome, Ann E.\n", "a name's own period is not doubled: \(register.stdout)")
        return host
    }

    @Test func aNameEndingInAPeriodGetsNoSecondOne() throws {
        let host = try world()
        let login = try host.run(arguments: ["auth", "login", "--email", "ann@example.com", "--password-stdin"], input: "secret12!\n")
        #expect(login.stdout.contains("Welcome back, Ann E.\n") && !login.stdout.contains(".."), "\(login.stdout)")
    }

    @Test func theResetMailNamesACommandThatWorks() throws {
        let host = try world()
        #expect(try host.run("auth", "reset-password", "--email", "ann@example.com").succeeded)
        let mail = try String(contentsOfFile: host.data + "/Auth/outbox.txt", encoding: .utf8)
        #expect(mail.contains("'modhost auth reset-password'") && mail.contains("--token-stdin"), "\(mail)")
        #expect(!mail.contains("--token TOKEN"))
        let token = try #require(mail.split(separator: "\n").first { $0.contains("token is: ") }?.split(separator: " ").last)
        let reset = try host.run(
            arguments: ["auth", "reset-password", "--token-stdin", "--password-stdin"], input: "\(token)\nbrandnew7!\nbrandnew7!\n")
        #expect(reset.succeeded, "the command the mail names takes the token: \(reset)")
    }

    @Test func aPluralSearchFindsTheCatalogsCats() throws {
        let host = try world()
        let cats = try host.run("photos", "search", "cats")
        #expect(cats.succeeded && cats.stdout.contains("cat, kitten, pet"), "\(cats)")
    }

    @Test func aCountryNamedInAnotherShippedLanguageIsTakenInEnglish() throws {
        let host = try world()
        #expect(try host.run("settings", "set", "geo.defaultCountry", "Italie").succeeded)
        #expect(try host.run("settings", "get", "geo.defaultCountry").stdout == "IT\n")
    }

    /// Settings → 1, a new display name: "Saved." and Settings again, not Home; an empty
    /// one says nothing changed.
    @Test func editingTheDisplayNameStaysInSettings() throws {
        let host = try world()
        let app = try host.run(arguments: [], input: "4\n1\nAnn Lee\n1\n\nq\n")
        #expect(
            app.stdout.contains("Display name (now Ann E.): Saved.\n\nSettings\n========\nAnn Lee <ann@example.com>\n"), "\(app.stdout)")
        #expect(app.stdout.contains("Display name (now Ann Lee): Nothing changed.\n"), "\(app.stdout)")
    }

    /// A refused value is told and that field asked again, with its value, default and rule.
    @Test func aRefusedSettingIsAskedAgain() throws {
        let host = try world()
        let app = try host.run(arguments: [], input: "4\n21\n2\n30\nq\n")
        let prompt = "New value for Photos per page (now 20, default 20, 3 to 200)? "
        #expect(app.stdout.contains(prompt + "! "), "refused: \(app.stdout)")
        #expect(app.stdout.contains(prompt + "Photos per page is now 30.\n"), "asked again and saved: \(app.stdout)")
    }

    @Test func cancellingLogOutSaysSo() throws {
        let host = try world()
        let home = try host.run(arguments: [], input: "l\n0\nq\n")
        #expect(home.stdout.contains("You are still logged in.\n"), "\(home.stdout)")
        let settings = try host.run(arguments: [], input: "4\nl\n0\n0\nq\n")
        #expect(settings.stdout.contains("You are still logged in.\n"), "\(settings.stdout)")
    }

    /// Page 2 of 3-photo pages goes on from 4; the cities of Places are bullets, not items.
    @Test func numbersGoOnAcrossPagesAndListRowsAreNotItems() throws {
        let host = try world()
        #expect(try host.run("settings", "set", "photos.perPage", "3").succeeded)
        let pages = try host.run(arguments: [], input: "2\n1\ncity\nn\nq\n")
        #expect(pages.stdout.contains("Page 2 of 2 (4 photos)\n  4. "), "\(pages.stdout)")
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "1").succeeded)
        let places = try host.run(arguments: [], input: "3\nq\n")
        #expect(places.stdout.contains("France (FR)\n  · 1\n  1. Add a city"), "a city named 1 is not an item: \(places.stdout)")
    }

    /// The language line says the language this run speaks (LANG may override the saved one).
    @Test func settingsNamesTheLanguageInForce() throws {
        let host = try world()
        let greek = try host.run(arguments: [], input: "4\nq\n", environment: ["LANG": "el_GR.UTF-8"])
        #expect(greek.stdout.contains("3. Γλώσσα: Ελληνικά\n"), "\(greek.stdout)")
    }

    /// An empty folder for a download, and an empty new name, are cancels that say so.
    @Test func cancellingADownloadOrARenameSaysSo() throws {
        let host = try world()
        let download = try host.run(arguments: [], input: "2\n1\ncat\n1\n1\n\nq\n")
        #expect(download.stdout.contains("Nothing was downloaded.\n"), "\(download.stdout)")
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "Paris").succeeded)
        let rename = try host.run(arguments: [], input: "3\n2\n1\n\nq\n")
        #expect(rename.stdout.contains("Nothing was renamed.\n"), "\(rename.stdout)")
    }

    /// A refused log in asks again with the email kept (Enter keeps it); a cancelled
    /// register says so.
    @Test func aWrongPasswordKeepsTheEmailAndACancelSaysSo() throws {
        let host = try world()
        #expect(try host.run("auth", "logout").succeeded)
        let login = try host.run(arguments: [], input: "1\nann@example.com\nwrong-pass1\n\nsecret12!\nq\n")
        #expect(login.stdout.contains("Email [ann@example.com]: Password: "), "the email kept: \(login.stdout)")
        #expect(login.stdout.contains("Welcome back, Ann E.\n"), "\(login.stdout)")
        #expect(try host.run("auth", "logout").succeeded)
        let register = try host.run(arguments: [], input: "2\nbob@example.com\n\nq\n")
        #expect(register.stdout.contains("No account was created.\n"), "\(register.stdout)")
    }
}
