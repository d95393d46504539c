import Foundation
import ModuleKit
import TestSupport
import Testing

/// Every strings table the build ships (the host's and every module's): all six locales,
/// each with exactly the English keys, each parseable.
@Suite struct ShippedStringsTests {
    static let folders: [String] = {
        let build = TestEnvironment.buildFolder
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: build)) ?? []
        return entries.filter { $0.hasSuffix(".resources") }.map { "\(build)/\($0)/Strings" }
            .filter { FileManager.default.fileExists(atPath: $0) }.sorted()
    }()

    /// The table test below runs once per folder found: with none found it would pass having
    /// checked nothing, so the folders it must see are named here.
    @Test func theHostAndEveryModuleShipStrings() {
        let names = Set(Self.folders.map { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent })
        let expected: Set<String> = [
            "ModuleHost_HostModel.resources", "Auth_AuthFeature.resources", "Geo_GeoFeature.resources",
            "Photos_PhotosFeature.resources", "Settings_SettingsFeature.resources",
        ]
        #expect(expected.isSubset(of: names), "missing: \(expected.subtracting(names).sorted())")
    }

    /// A plural entry's key without its category (`results.summary#one` → `results.summary`).
    static func base(_ key: String) -> String { String(key.prefix { $0 != "#" }) }

    /// The categories a language uses for whole numbers.
    static func categories(_ language: String) -> Set<String> {
        Set([0, 1, 2, 5, 21, 1_000_000].map { PluralRules.category(of: $0, language: language).rawValue })
    }

    @Test(arguments: folders)
    func everyKeyIsInEveryLocale(folder: String) throws {
        let strings = try ModuleStrings.loadEveryLocale(module: folder, from: folder, locale: LocaleSetting(environment: [:]))
        #expect(Set(strings.tables.keys) == Set(ModuleStrings.shippedLocales))
        let englishTable = strings.tables["en", default: [:]]
        let english = Set(englishTable.keys.map(Self.base))
        #expect(!english.isEmpty)
        for locale in ModuleStrings.shippedLocales {
            let table = strings.tables[locale, default: [:]]
            let keys = Set(table.keys.map(Self.base))
            #expect(english.subtracting(keys).sorted() == [], "\(locale) lacks keys")
            #expect(keys.subtracting(english).sorted() == [], "\(locale) has keys English lacks")
            // A plural entry has exactly the forms its language uses, no more, no fewer.
            for key in keys where englishTable.keys.contains(where: { $0.hasPrefix(key + "#") }) {
                let forms = Set(table.keys.filter { Self.base($0) == key }.map { String($0.drop { $0 != "#" }.dropFirst()) })
                #expect(forms == Self.categories(locale), "\(locale) '\(key)' has forms \(forms.sorted())")
            }
            for (key, text) in table {
                let placeholders = text.components(separatedBy: "%@").count
                let englishText = englishTable[key] ?? englishTable[Self.base(key) + "#other"] ?? ""
                #expect(placeholders == englishText.components(separatedBy: "%@").count, "\(locale) '\(key)' has another number of %@")
            }
        }
    }
}

/// The CLDR plural forms per language, and the strings machinery choosing them.
@Suite struct PluralRulesTests {
    @Test(arguments: [
        ("en", [0: "other", 1: "one", 2: "other", 1_000_000: "other"]),
        ("de", [0: "other", 1: "one", 2: "other", 1_000_000: "other"]),
        ("el", [0: "other", 1: "one", 2: "other", 1_000_000: "other"]),
        ("es", [0: "other", 1: "one", 2: "other", 1_000_000: "many", 2_000_000: "many", 1_000_001: "other"]),
        ("it", [0: "other", 1: "one", 2: "other", 1_000_000: "many", 3_000_000: "many"]),
        ("fr", [0: "one", 1: "one", 2: "other", 21: "other", 1_000_000: "many", 1_000_001: "other"]),
    ])
    func categories(language: String, expected: [Int: String]) {
        for (count, category) in expected {
            #expect(PluralRules.category(of: count, language: language).rawValue == category, "\(language) \(count)")
        }
    }

    @Test func thePhotosCountReadsRightInEveryLanguage() throws {
        let folder = TestEnvironment.buildFolder + "/Photos_PhotosFeature.resources/Strings"
        let expected: [(String, Int, String)] = [
            ("en", 1, "Page 1 of 1 (1 photo)"), ("en", 3, "Page 1 of 1 (3 photos)"),
            ("fr", 0, "Page 1 sur 1 (0 photo)"), ("fr", 1_000_000, "Page 1 sur 1 (1000000 de photos)"),
            ("es", 1, "Página 1 de 1 (1 foto)"), ("de", 2, "Seite 1 von 1 (2 Fotos)"), ("el", 1, "Σελίδα 1 από 1 (1 φωτογραφία)"),
        ]
        for (language, count, text) in expected {
            let locale = LocaleSetting(environment: ["LANG": language])
            let strings = try ModuleStrings.load(module: "Photos", from: folder, locale: locale)
            #expect(strings.plural("results.summary", count: count, "1", "1", "\(count)") == text)
        }
    }
}
