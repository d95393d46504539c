import Foundation
import ModuleKit
import ModuleKitTesting
import Testing

@testable import GeoFeature

@Suite struct PlacesInteractorTests {
    @Test(arguments: [
        ("FR", "en"), ("fr", "en"), ("France", "en"), ("france", "en"), ("Frankreich", "de"), ("Γαλλία", "el"), ("France", "de"),
    ])
    func acceptsACodeOrANameInTheLocaleOrEnglish(text: String, locale: String) throws {
        #expect(try makeInteractor(locale: locale).country(text).code == "FR")
    }

    @Test func namesCountriesInTheCurrentLocale() throws {
        #expect(try makeInteractor(locale: "de").country("FR").name == "Frankreich")
        #expect(try makeInteractor(locale: "it").country("DE").name == "Germania")
    }

    @Test func anUnknownCountryComesWithTheClosestNames() throws {
        let interactor = try makeInteractor()
        #expect(throws: GeoError.unknownCountry("Frnce", suggestions: ["France"])) { try interactor.country("Frnce") }
        #expect(throws: GeoError.unknownCountry("Narnia", suggestions: [])) { try interactor.country("Narnia") }
        #expect(throws: GeoError.unknownCountry("EU", suggestions: [])) { try interactor.country("EU") }
        #expect(throws: GeoError.unknownCountry("Germ", suggestions: ["Germany"])) { try interactor.country("Germ") }
    }

    @Test(arguments: [
        ("", GeoError.emptyName), ("   ", .emptyName), (String(repeating: "x", count: 10_000), .nameTooLong(limit: 100)),
        ("Ly\u{7}on", .controlCharacters), ("Ly\non", .controlCharacters), ("Ly\u{FFFD}on", .controlCharacters),
    ])
    func badCityNamesAreRefused(name: String, error: GeoError) throws {
        let storage = InMemoryGeoStorage()
        let interactor = try makeInteractor(storage: storage)
        #expect(throws: error) { try interactor.add(country: "FR", city: name) }
        #expect(try storage.count() == 0)
    }

    @Test func aDuplicateInOneCountryIsRefusedByName() throws {
        let interactor = try makeInteractor()
        _ = try interactor.add(country: "FR", city: "Besançon")
        #expect(throws: GeoError.duplicate(city: "besancon", country: "France")) { try interactor.add(country: "France", city: "besancon") }
        // The same name in another country is another city.
        #expect(try interactor.add(country: "BE", city: "Besançon").country == "BE")
    }

    @Test func theDuplicateRuleHoldsOnTheRealTableToo() throws {
        // The interactor over SQLite, as the module runs: the table's own rule, not the double's.
        let folder = NSTemporaryDirectory() + "geo-interactor-" + UUID().uuidString
        let interactor = try makeInteractor(storage: try SQLiteGeoStorage(storage: ModuleStorage(dataFolder: folder, module: "Geo")))
        _ = try interactor.add(country: "FR", city: "Besançon")
        #expect(throws: GeoError.duplicate(city: "besancon", country: "France")) { try interactor.add(country: "France", city: "besancon") }
        #expect(throws: GeoError.duplicate(city: "BESANÇON", country: "France")) { try interactor.add(country: "FR", city: " BESANÇON ") }
        #expect(try interactor.add(country: "BE", city: "Besançon").country == "BE")
        _ = try interactor.add(country: "FR", city: "Lyon")
        #expect(throws: GeoError.duplicate(city: "Lyon", country: "France")) {
            try interactor.rename(country: "FR", city: "besançon", to: "Lyon")
        }
        #expect(try interactor.groups().flatMap(\.cities).map(\.name).sorted() == ["Besançon", "Besançon", "Lyon"])
    }

    @Test func groupsAreSortedForTheLocale() throws {
        let storage = InMemoryGeoStorage()
        let english = try makeInteractor(locale: "en", storage: storage)
        for (country, city) in [("FR", "Paris"), ("DE", "Zwickau"), ("DE", "Österreich Straße"), ("FR", "Évreux"), ("FR", "amiens")] {
            _ = try english.add(country: country, city: city)
        }
        let groups = try english.groups()
        #expect(groups.map(\.country.name) == ["France", "Germany"])
        #expect(groups[0].cities.map(\.name) == ["amiens", "Évreux", "Paris"])
        #expect(groups[1].cities.map(\.name) == ["Österreich Straße", "Zwickau"])
        let german = try makeInteractor(locale: "de", storage: storage)
        #expect(try german.groups().map(\.country.name) == ["Deutschland", "Frankreich"])
    }

    @Test func renameAndRemove() throws {
        let storage = InMemoryGeoStorage()
        let interactor = try makeInteractor(storage: storage)
        _ = try interactor.add(country: "IT", city: "Roma")
        _ = try interactor.add(country: "IT", city: "Milano")
        #expect(try interactor.rename(country: "IT", city: "roma", to: "Rome").name == "Rome")
        #expect(throws: GeoError.duplicate(city: "Milano", country: "Italy")) {
            try interactor.rename(country: "IT", city: "Rome", to: "Milano")
        }
        #expect(throws: GeoError.notFound(city: "Napoli", country: "Italy")) { try interactor.remove(country: "IT", city: "Napoli") }
        _ = try interactor.remove(country: "IT", city: "MILANO")
        #expect(try interactor.groups().flatMap(\.cities).map(\.name) == ["Rome"])
    }

    @Test func messagesAreLocalized() throws {
        let strings = try geoStrings(locale: "fr")
        #expect(
            GeoError.unknownCountry("Frnce", suggestions: ["France"]).message(strings)
                == "« Frnce » n'est pas un pays. Vouliez-vous dire : France ?")
        #expect(GeoError.emptyName.message(try geoStrings(locale: "en")) == "A name is required.")
    }
}

func geoStrings(locale: String) throws -> ModuleStrings {
    let harness = ModuleTestHarness(GeoModule.self)
    harness.locale.set(locale)
    return try harness.loadStrings()
}
