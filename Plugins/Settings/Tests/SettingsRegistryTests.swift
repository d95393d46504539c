import Contracts
import Foundation
import ModuleKit
import ModuleKitTesting
import Testing

@testable import SettingsFeature

@MainActor
@Suite struct SettingsRegistryTests {
    @Test(arguments: [
        ("on", SettingKind.toggle, Result<SettingValue, SettingsError>.success(.bool(true))),
        ("No", .toggle, .success(.bool(false))),
        ("maybe", .toggle, .failure(.notAToggle("maybe"))),
        ("PIXABAY", .choice(["catalog", "pixabay"]), .success(.text("pixabay"))),
        ("flickr", .choice(["catalog", "pixabay"]), .failure(.notAChoice("flickr", options: ["catalog", "pixabay"]))),
        (" 20 ", .number(3...200), .success(.int(20))),
        ("2", .number(3...200), .failure(.outOfRange(2, range: 3...200))),
        ("twenty", .number(3...200), .failure(.notANumber("twenty", range: 3...200))),
        ("FR", .text(maxLength: 60), .success(.text("FR"))),
        (String(repeating: "x", count: 61), .text(maxLength: 60), .failure(.tooLong(limit: 60))),
        ("a\u{7}b", .text(maxLength: 60), .failure(.controlCharacters)),
    ])
    func valuesAreValidatedByKindAndRange(text: String, kind: SettingKind, expected: Result<SettingValue, SettingsError>) {
        #expect(SettingsRegistry.parse(text, as: kind) == expected)
    }

    @Test func aStoredValueThatNoLongerFitsFallsBackToTheDefault() {
        #expect(SettingsRegistry.fits(.int(50), .number(3...200)))
        #expect(!SettingsRegistry.fits(.int(500), .number(3...200)))
        #expect(!SettingsRegistry.fits(.text("x"), .toggle))
    }

    @Test func messagesAreLocalized() throws {
        let harness = ModuleTestHarness(SettingsModule.self)
        let strings = try harness.loadStrings()
        #expect(SettingsError.outOfRange(500, range: 3...200).message(strings) == "'500' is not a whole number from 3 to 200.")
        harness.locale.set("de")
        #expect(SettingsError.notAToggle("x").message(strings) == "„x“ ist weder on noch off.")
    }
}

/// Settings as the host runs it: the language, contributed settings, values that persist.
@MainActor
@Suite struct SettingsModuleTests {
    @Test func theLanguageSwitchesEveryModulesStringsAndPersists() throws {
        let harness = ModuleTestHarness(SettingsModule.self)
        try harness.start()
        let settings = try harness.resolve((any SettingsRoute).self)
        try harness.run("set", ["settings.language", "el"])
        #expect(harness.locale.current == "el")
        #expect(settings.value(of: SettingsService.language.name) == .text("el"))
        #expect(throws: (any Error).self) { try harness.run("set", ["settings.language", "xx"]) }
        #expect(harness.locale.current == "el")
    }

    /// A typed key is the definition and the read: each kind registers, stores and reads back
    /// as its Swift type, through the real service and its database.
    @Test func typedKeysRegisterStoreAndReadAsTheirType() throws {
        let harness = ModuleTestHarness(SettingsModule.self)
        try harness.start()
        let settings = try harness.resolve((any SettingsRoute).self)
        let perPage = SettingKey<Int>("perPage", module: "Photos")
        let safeSearch = SettingKey<Bool>("safeSearch", module: "Photos")
        let source = SettingKey<String>("source", module: "Photos")
        let caption = SettingKey<String>("caption", module: "Photos")
        settings.register(
            [
                SettingDefinition(perPage, title: { "Per page" }, range: 3...200, defaultValue: 20),
                SettingDefinition(safeSearch, title: { "Safe search" }, defaultValue: true),
                SettingDefinition(source, title: { "Source" }, choices: ["catalog", "pixabay"], defaultValue: "catalog"),
                SettingDefinition(caption, title: { "Caption" }, maxLength: 5, defaultValue: ""),
            ], module: "Photos")
        #expect(settings.value(perPage) == 20)
        #expect(settings.value(safeSearch) == true)
        #expect(settings.value(source) == "catalog")
        for (key, value) in [
            ("photos.perPage", "50"), ("photos.safeSearch", "off"), ("photos.source", "pixabay"), ("photos.caption", "hi"),
        ] {
            try harness.run("set", [key, value])
        }
        #expect(settings.value(perPage) == 50)
        #expect(settings.value(safeSearch) == false)
        #expect(settings.value(source) == "pixabay")
        #expect(settings.value(caption) == "hi")
        #expect(throws: (any Error).self) { try harness.run("set", ["photos.caption", "too long"]) }
        // A key read as another type than its definition's, or one never registered, is nil.
        #expect(settings.value(SettingKey<Bool>("perPage", module: "Photos")) == nil)
        #expect(settings.value(SettingKey<Int>("missing", module: "Photos")) == nil)
    }

    @Test func contributedSettingsAreValidatedAndStored() throws {
        let harness = ModuleTestHarness(SettingsModule.self)
        try harness.start()
        let settings = try harness.resolve((any SettingsRoute).self)
        settings.register(
            [SettingDefinition(key: "perPage", title: { "Per page" }, kind: .number(3...200), defaultValue: .int(20))], module: "Photos")
        // The form of callers written before SDK 1.7.0 still answers.
        #expect(settings.value(of: "perPage", module: "Photos") == .int(20))
        try harness.run("set", ["PHOTOS.perPage", "50"])
        #expect(harness.terminal.output.hasSuffix("photos.perPage = 50\n"), "the setting's own name, however it was typed")
        try harness.run("get", ["photos.perpage"])
        #expect(harness.terminal.output.hasSuffix("50\n"), "a key in any case, when it names one setting")
        #expect(settings.value(of: SettingName(module: "photos", key: "perPage")) == .int(50))
        #expect(settings.value(of: SettingName(module: "Photos", key: "missing")) == nil)
        #expect(throws: (any Error).self) { try harness.run("set", ["photos.perPage", "500"]) }
        #expect(throws: (any Error).self) { try harness.run("set", ["photos.perPag", "5"]) }
        try harness.run("list", ["--json"])
        #expect(harness.terminal.output.contains(#"{"default":"20","key":"photos.perPage","title":"Per page","value":"50"}"#))
    }

    /// A value stored by an older version that the setting no longer accepts (Geo's country
    /// was free text): the default is used, and the screen and `settings list` name the value.
    @Test func aStoredValueThatNoLongerFitsIsNamedWhereTheSettingIsShown() throws {
        let harness = ModuleTestHarness(SettingsModule.self, input: ["q"])
        try harness.start()
        let service = try #require(try harness.resolve((any SettingsRoute).self) as? SettingsService)
        service.register(
            [
                SettingDefinition(
                    key: "defaultCountry", title: { "Default country" }, kind: .choice(["FR", "IT"]), defaultValue: .text("FR"))
            ],
            module: "Geo")
        let country = SettingName(module: "Geo", key: "defaultCountry")
        try service.store.set(.text("Italie"), for: country)
        #expect(service.value(of: country) == .text("FR"))
        #expect(service.unfitStoredValue(of: country) == .text("Italie"))

        try harness.run("list")
        #expect(
            harness.terminal.output.contains(
                "geo.defaultCountry = FR    (Default country)\n    FR (the stored “Italie” is no longer valid: the default is used until you set it again)\n"
            ), "\(harness.terminal.output)")
        try harness.run("list", ["--json"])
        #expect(
            harness.terminal.output.contains(
                #""key":"geo.defaultCountry","title":"Default country","unusableStored":"Italie","value":"FR""#))
        harness.run(try #require(try harness.homeEntries().first).open())
        #expect(
            harness.terminal.output.contains("Geo: Default country: FR (the stored “Italie” is no longer valid"),
            "\(harness.terminal.output)")

        try harness.run("set", ["geo.defaultCountry", "IT"])
        #expect(service.unfitStoredValue(of: country) == nil)
        #expect(service.value(of: country) == .text("IT"))
    }
}
