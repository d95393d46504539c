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
            "ModuleHost_HostCore.resources", "Auth_AuthFeature.resources", "Geo_GeoFeature.resources",
            "Photos_PhotosFeature.resources", "Settings_SettingsFeature.resources",
        ]
        #expect(expected.isSubset(of: names), "missing: \(expected.subtracting(names).sorted())")
    }

    @Test(arguments: folders)
    func everyKeyIsInEveryLocale(folder: String) throws {
        let strings = try ModuleStrings.load(module: folder, from: folder, locale: LocaleSetting(environment: [:]))
        #expect(Set(strings.tables.keys) == Set(ModuleStrings.shippedLocales))
        let english = Set(strings.tables["en", default: [:]].keys)
        #expect(!english.isEmpty)
        for locale in ModuleStrings.shippedLocales {
            let keys = Set(strings.tables[locale, default: [:]].keys)
            #expect(english.subtracting(keys).sorted() == [], "\(locale) lacks keys")
            #expect(keys.subtracting(english).sorted() == [], "\(locale) has keys English lacks")
            for (key, text) in strings.tables[locale, default: [:]] {
                let placeholders = text.components(separatedBy: "%@").count
                let englishPlaceholders = strings.tables["en", default: [:]][key, default: ""].components(separatedBy: "%@").count
                #expect(placeholders == englishPlaceholders, "\(locale) '\(key)' has another number of %@")
            }
        }
    }
}
