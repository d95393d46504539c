import Foundation
import Testing

@testable import ModuleKit

@Suite struct StringsTests {
    @Test func parsesTheStringsFormat() throws {
        let table = try StringsFile.parse(
            """
            /* A block
               comment */
            // a line comment
            "button.ok" = "OK";
            "quote" = "She said \\"hi\\"\\n";
            "unicode"="\\u00e9t\\u00E9";   "same.line" = "x";
            """)
        #expect(table == ["button.ok": "OK", "quote": "She said \"hi\"\n", "unicode": "été", "same.line": "x"])
    }

    @Test(arguments: [
        ("\"a\" = \"b\"", "line 1: expected ';' at end of file"),
        ("\"a\" \"b\";", "line 1: expected '=', found '\"'"),
        ("\n\n\"a\" = \"b", "line 3: unterminated string"),
        ("\"a\" = \"b\";\n\"a\" = \"c\";", "line 2: duplicate key \"a\""),
        ("/* open", "line 1: unterminated comment"),
        ("\"a\" = \"\\q\";", "line 1: unknown escape '\\q'"),
    ])
    func syntaxErrorsNameTheLine(text: String, message: String) {
        #expect(throws: StringsFile.SyntaxError.self) { try StringsFile.parse(text) }
        do {
            _ = try StringsFile.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(arguments: [
        ("%@ is required.", ["Email"], "Email is required."),
        ("%@ and %@", ["a", "b"], "a and b"),
        ("100%% of %@", ["x"], "100% of x"),
        ("%@ %@", ["only"], "only %@"),
        ("%d stays", [], "%d stays"),
        ("ends with %", [], "ends with %"),
    ])
    func formatsPositionallyWithoutCrashing(template: String, arguments: [String], expected: String) {
        #expect(ModuleStrings.substitute(template, arguments) == expected)
    }

    @Test(arguments: [
        (["LANG": "fr_FR.UTF-8"], "fr"),
        (["LANG": "de"], "de"),
        (["LANG": "el_GR.UTF-8"], "el"),
        (["LANG": "ja_JP.UTF-8"], "en"),
        (["LANG": "C.UTF-8"], "en"),
        (["LC_ALL": "it_IT.UTF-8", "LANG": "fr_FR.UTF-8"], "it"),
        (["LC_MESSAGES": "es_ES", "LANG": "fr_FR"], "es"),
        ([:], "en"),
    ])
    func theLocaleComesFromTheEnvironment(environment: [String: String], locale: String) {
        #expect(LocaleSetting(environment: environment).current == locale)
    }

    @Test func lookupFallsBackToEnglishThenToTheKey() throws {
        let folder = try stringsFolder(["en": "\"a\" = \"A\";\n\"b\" = \"B\";", "fr": "\"a\" = \"À\";"])
        let locale = LocaleSetting(environment: ["LANG": "fr_FR"])
        let strings = try ModuleStrings.load(module: "Geo", from: folder, locale: locale)
        #expect(strings["a"] == "À")
        #expect(strings["b"] == "B")
        #expect(strings["c"] == "c")
        #expect(locale.set("de"))
        #expect(strings["a"] == "A", "a locale the module does not ship falls back to English")
        #expect(!locale.set("xx"))
        #expect(locale.current == "de")
    }

    @Test func onlyEnglishAndTheCurrentLanguageAreReadUntilAnotherIsAskedFor() throws {
        let folder = try stringsFolder(["en": "\"a\" = \"A\";", "fr": "\"a\" = \"À\";", "de": "\"a\" = \"Ä\";", "it": "broken"])
        let locale = LocaleSetting(environment: ["LANG": "fr_FR"])
        let strings = try ModuleStrings.load(module: "Geo", from: folder, locale: locale)
        #expect(Set(strings.tables.keys) == ["en", "fr"])
        #expect(locale.set("de"))
        #expect(strings["a"] == "Ä")
        #expect(Set(strings.tables.keys) == ["en", "fr", "de"])
        // A broken table met at a switch reads as English; `check` names it (loadEveryLocale).
        #expect(locale.set("it"))
        #expect(strings["a"] == "A")
        let every = #expect(throws: StringsError.self) { try ModuleStrings.loadEveryLocale(module: "Geo", from: folder, locale: locale) }
        #expect(every?.message == "module 'Geo': '\(folder)/it.lproj/Localizable.strings': line 1: expected '\"', found 'b'")
    }

    @Test func missingOrBrokenStringsAreErrorsNotCrashes() throws {
        let locale = LocaleSetting(environment: [:])
        let missing = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: "/nonexistent", locale: locale) }
        #expect(
            missing?.message
                == "module 'Geo': strings folder '/nonexistent' cannot be read; is the module's resources folder next to its library?")
        let noEnglish = try stringsFolder(["fr": "\"a\" = \"b\";"])
        let english = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: noEnglish, locale: locale) }
        #expect(english?.message == "module 'Geo': no 'en.lproj/Localizable.strings' in '\(noEnglish)'")
        let broken = try stringsFolder(["en": "\"a\" = "])
        let syntax = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: broken, locale: locale) }
        #expect(syntax?.message == "module 'Geo': '\(broken)/en.lproj/Localizable.strings': line 1: expected '\"' at end of file")
    }

    @Test func aStringsFileOthersCouldChangeOrTooLargeIsRefusedWithItsReason() throws {
        let locale = LocaleSetting(environment: [:])
        let open = try stringsFolder(["en": "\"a\" = \"A\";"])
        let file = open + "/en.lproj/Localizable.strings"
        chmod(file, 0o666)
        let writable = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: open, locale: locale) }
        #expect(
            writable?.message.hasPrefix(
                "module 'Geo': strings file '\(file)' is writable by others than its owner (mode 0666") == true,
            "\(writable?.message ?? "")")
        let large = try stringsFolder(["en": "\"a\" = \"" + String(repeating: "x", count: 5 << 20) + "\";"])
        let tooLarge = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: large, locale: locale) }
        #expect(
            tooLarge?.message
                == "module 'Geo': strings file '\(large)/en.lproj/Localizable.strings' is \((5 << 20) + 9) bytes, more than the 4194304 allowed"
        )
        // A symlink to a table, in a folder others may write: another user could point it elsewhere.
        let real = try stringsFolder(["en": "\"a\" = \"A\";"])
        let linked = NSTemporaryDirectory() + "strings-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: linked + "/en.lproj", withIntermediateDirectories: true)
        chmod(linked + "/en.lproj", 0o777)
        symlink(real + "/en.lproj/Localizable.strings", linked + "/en.lproj/Localizable.strings")
        let link = #expect(throws: StringsError.self) { try ModuleStrings.load(module: "Geo", from: linked, locale: locale) }
        #expect(link?.message.contains("goes through symlink '\(linked)/en.lproj/Localizable.strings'") == true, "\(link?.message ?? "")")
    }

    @Test func checkRefusesAnEnglishTableWithoutKeys() throws {
        let locale = LocaleSetting(environment: [:])
        let empty = try stringsFolder(["en": "/* nothing yet */\n"])
        let error = #expect(throws: StringsError.self) { try ModuleStrings.loadEveryLocale(module: "Geo", from: empty, locale: locale) }
        #expect(
            error?.message
                == "module 'Geo': '\(empty)/en.lproj/Localizable.strings' holds no strings; every screen would show raw keys")
    }

    private func stringsFolder(_ tables: [String: String]) throws -> String {
        let folder = NSTemporaryDirectory() + "strings-" + UUID().uuidString
        for (locale, text) in tables {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(locale).lproj", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(locale).lproj/Localizable.strings"))
        }
        return folder
    }
}
