import Foundation
@_spi(Host) import ModuleKit
import ModuleKitTesting
import Synchronization

@testable import GeoFeature

/// The storage test double: cities in memory, same rules as SQLite's.
final class InMemoryGeoStorage: GeoStorageService {
    private let cities = Mutex<[(city: City, sortKey: String)]>([])

    func forEachCity(_ body: (City) throws -> Void) throws {
        let sorted = cities.withLock { $0 }.sorted { ($0.city.country, $0.sortKey) < ($1.city.country, $1.sortKey) }
        for entry in sorted { try body(entry.city) }
    }

    func add(_ city: City, sortKey: String) throws {
        try cities.withLock { cities throws(GeoError) in
            if cities.contains(where: { Self.same($0.city, city) }) { throw GeoError.duplicate(city: city.name, country: city.country) }
            cities.append((city, sortKey))
        }
    }

    func rename(_ city: City, to name: String, sortKey: String) throws {
        try cities.withLock { cities throws(GeoError) in
            guard let index = cities.firstIndex(where: { Self.same($0.city, city) }) else {
                throw GeoError.notFound(city: city.name, country: city.country)
            }
            let renamed = City(country: city.country, name: name)
            if cities.indices.contains(where: { $0 != index && Self.same(cities[$0].city, renamed) }) {
                throw GeoError.duplicate(city: name, country: city.country)
            }
            cities[index] = (renamed, sortKey)
        }
    }

    func remove(_ city: City) throws {
        try cities.withLock { cities throws(GeoError) in
            guard let index = cities.firstIndex(where: { Self.same($0.city, city) }) else {
                throw GeoError.notFound(city: city.name, country: city.country)
            }
            cities.remove(at: index)
        }
    }

    func count() throws -> Int { cities.withLock { $0.count } }

    private static func same(_ a: City, _ b: City) -> Bool {
        a.country == b.country && RegionCatalog.fold(a.name) == RegionCatalog.fold(b.name)
    }
}

/// A resolver with Geo's services, the storage being the in-memory double.
func makeResolver(storage: any GeoStorageService = InMemoryGeoStorage()) throws -> ModuleResolver {
    let (locator, access) = ServiceLocator.withHostAccess()
    // A resolver does not own its locator (the host's lives as long as the process): each
    // test's is kept here, so a screen that resolves later (the default country, when a city
    // is added) finds it.
    liveLocators.withLock { $0.append(locator) }
    let resolver = locator.resolver(for: GeoModule.manifest, access: access)
    let registry = ModuleRegistry(context: .testing(moduleName: "Geo", resolver: resolver), locator: locator)
    try registry.service((any GeoStorageService).self, .singleton(storage))
    try registry.service(RegionCatalog.self, .singleton(sharedCatalog))
    locator.seal()
    return resolver
}

let sharedCatalog = RegionCatalog()

/// The locators `makeResolver` made, alive until the tests end.
let liveLocators = Mutex<[ServiceLocator]>([])

func makeInteractor(locale: String = "en", storage: any GeoStorageService = InMemoryGeoStorage()) throws -> PlacesInteractor {
    let setting = LocaleSetting(environment: [:])
    setting.set(locale)
    return try PlacesInteractor(resolver: try makeResolver(storage: storage), locale: setting)
}
