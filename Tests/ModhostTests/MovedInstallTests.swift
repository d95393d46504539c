import Foundation
import TestSupport
import Testing

/// An install copied elsewhere keeps working: the host finds its strings beside `modhost`,
/// each module beside its own library. A module whose strings are gone fails with a clear
/// reason; the host and the other modules keep running.
///
/// It runs a copy of modhost in another folder, with parts of it missing: not a world.
@Suite struct MovedInstallTests {
    static let files = ["modhost", "libModuleKit.so", "libContracts.so", "libAuth.so"]
    static let folders = ["ModuleHost_HostModel.resources", "Auth_AuthFeature.resources"]

    func install(without missing: String? = nil) throws -> String {
        let folder = try TestEnvironment.temporaryFolder() + "/opt/modhost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in Self.files + Self.folders where name != missing {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: folder + "/" + name)
        }
        try Data(#"{"modules": [{"name": "Auth", "enabled": true}]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/modules.json"))
        return folder
    }

    @Test func aCopiedInstallFindsItsModulesAndStrings() throws {
        let folder = try install()
        let result = try ChildProcess.run(
            folder + "/modhost", ["--config", folder + "/modules.json"], input: "q\n", environment: ["LANG": "de_DE.UTF-8"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.contains("Willkommen\n"))
        #expect(result.stdout.contains("  1. Anmelden\n"))
        #expect(result.stdout.hasSuffix("Auf Wiedersehen.\n"))
    }

    @Test func aModuleWithoutItsStringsFailsClearly() throws {
        let folder = try install(without: "Auth_AuthFeature.resources")
        let result = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json", "modules"])
        #expect(result.status == 0)
        let reason =
            "module 'Auth': strings folder '\(folder)/Auth_AuthFeature.resources/Strings' cannot be read; is the module's resources folder next to its library?"
        #expect(result.stdout.contains("    reason: " + reason))
        // `check` finds it without starting anything.
        let check = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json", "check"])
        #expect(check.status == 1)
        #expect(check.stderr == "modhost: error: '\(folder)/modules.json': modules[0] ('Auth'): \(reason)\n")
    }

    @Test func aStringsFileOthersCouldChangeFailsItsModuleWithTheReason() throws {
        let folder = try install()
        let english = folder + "/Auth_AuthFeature.resources/Strings/en.lproj/Localizable.strings"
        chmod(english, 0o666)
        let result = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json", "modules"])
        #expect(
            result.stdout.contains(
                "    reason: module 'Auth': strings file '\(english)' is writable by others than its owner (mode 0666"),
            "\(result.stdout)")
    }

    @Test func checkRefusesAnEnglishTableWithoutKeys() throws {
        // The app would show raw keys on every screen, though the file parses.
        let folder = try install()
        let english = folder + "/Auth_AuthFeature.resources/Strings/en.lproj/Localizable.strings"
        try Data("/* emptied */\n".utf8).write(to: URL(fileURLWithPath: english))
        let check = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json", "check"])
        #expect(check.status == 1)
        #expect(
            check.stderr
                == "modhost: error: '\(folder)/modules.json': modules[0] ('Auth'): module 'Auth': '\(english)' holds no strings; every screen would show raw keys\n"
        )
    }

    /// A translation that holds a terminal escape: a run shows it as `?`; check names the
    /// file, the key and the character.
    @Test func checkNamesAStringsValueATerminalWouldObey() throws {
        let folder = try install()
        let german = folder + "/Auth_AuthFeature.resources/Strings/de.lproj/Localizable.strings"
        let table = try String(contentsOfFile: german, encoding: .utf8)
        let line = try #require(table.split(separator: "\n").first { $0.hasPrefix("\"login.title\"") })
        try Data(table.replacingOccurrences(of: line, with: #""login.title" = "Anmelden\U001B]2;pwned\U0007";"#).utf8)
            .write(to: URL(fileURLWithPath: german))
        // Welcome → 1 log in (the form's title) → an empty answer cancels → q.
        let run = try ChildProcess.run(
            folder + "/modhost", ["--config", folder + "/modules.json"], input: "1\n\nq\n", environment: ["LANG": "de_DE.UTF-8"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Anmelden?]2;pwned?\n"), "\(run.stdout)")
        let check = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json", "check"])
        #expect(check.status == 1)
        #expect(
            check.stderr
                == "modhost: error: '\(folder)/modules.json': modules[0] ('Auth'): module 'Auth': '\(german)': the value of 'login.title' holds the control character U+001B, which a terminal would obey; remove it\n",
            "\(check.stderr)")
    }

    @Test func theHostWithoutItsStringsStillRuns() throws {
        let folder = try install(without: "ModuleHost_HostModel.resources")
        let result = try ChildProcess.run(folder + "/modhost", ["--config", folder + "/modules.json"], input: "")
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix("modhost: error: the host's strings are missing, screens show keys: module 'modhost': strings folder"))
        #expect(result.stdout.contains("welcome.title"))
    }

    /// A run reads English and the language it shows, nothing else: a broken German table
    /// does not stop a French run, fails Auth in a German one (named, with the line), and
    /// `check`, which reads every language, finds it whatever the language.
    @Test func onlyTheLanguageShownIsReadAndCheckReadsThemAll() throws {
        let folder = try install()
        let german = folder + "/Auth_AuthFeature.resources/Strings/de.lproj/Localizable.strings"
        try Data(#""welcome.title" = "Willkommen"#.utf8).write(to: URL(fileURLWithPath: german))
        let config = ["--config", folder + "/modules.json"]
        let french = try ChildProcess.run(folder + "/modhost", config + ["modules"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(french.status == 0)
        #expect(french.stdout.contains("Auth   actif"), "\(french.stdout)")
        let reason = "module 'Auth': '\(german)': line 1: unterminated string"
        let inGerman = try ChildProcess.run(folder + "/modhost", config + ["modules"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(inGerman.stdout.contains(reason), "\(inGerman.stdout)")
        let check = try ChildProcess.run(folder + "/modhost", config + ["check"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(check.status == 1)
        #expect(check.stderr.contains(reason), "\(check.stderr)")
        // Repaired, every language is read and the time it took is said.
        try Data(#""welcome.title" = "Willkommen";"#.utf8).write(to: URL(fileURLWithPath: german))
        let valid = try ChildProcess.run(folder + "/modhost", config + ["check"], environment: ["LC_ALL": "C"])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("Every shipped language is valid (12 strings files, read in "), "\(valid.stdout)")
    }
}
