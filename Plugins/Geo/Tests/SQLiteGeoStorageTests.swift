import Foundation
import ModuleKit
import Testing

@testable import GeoFeature

/// The real table, not a double: its UNIQUE (country, match_key) is what refuses a duplicate
/// city (same country, ignoring case and accents), also across processes.
@Suite struct SQLiteGeoStorageTests {
    func storage() throws -> SQLiteGeoStorage {
        try SQLiteGeoStorage(storage: ModuleStorage(dataFolder: NSTemporaryDirectory() + "geo-tests-" + UUID().uuidString, module: "Geo"))
    }

    @Test(arguments: ["Lyon", "LYON", "lyon", "Lyón", " Lyon"])
    func theTableRefusesTheSameCityInTheSameCountry(name: String) throws {
        let geo = try storage()
        try geo.add(City(country: "FR", name: "Lyon"), sortKey: "lyon")
        if name.hasPrefix(" ") {
            // Not the same name to the table; the interactor trims before it stores.
            try geo.add(City(country: "FR", name: name), sortKey: "lyon")
            return
        }
        #expect(throws: GeoError.duplicate(city: name, country: "FR")) { try geo.add(City(country: "FR", name: name), sortKey: "lyon") }
        var count = 0
        try geo.forEachCity { _ in count += 1 }
        #expect(count == 1)
    }

    @Test func theSameNameInAnotherCountryIsAnotherCity() throws {
        let geo = try storage()
        try geo.add(City(country: "FR", name: "Paris"), sortKey: "paris")
        try geo.add(City(country: "US", name: "Paris"), sortKey: "paris")
        var cities: [City] = []
        try geo.forEachCity { cities.append($0) }
        #expect(cities.map(\.country) == ["FR", "US"])
    }

    @Test func aRenameOntoAnExistingCityIsRefusedByTheTable() throws {
        let geo = try storage()
        try geo.add(City(country: "IT", name: "Roma"), sortKey: "roma")
        try geo.add(City(country: "IT", name: "Milano"), sortKey: "milano")
        #expect(throws: GeoError.duplicate(city: "ROMA", country: "IT")) {
            try geo.rename(City(country: "IT", name: "Milano"), to: "ROMA", sortKey: "roma")
        }
    }
}
