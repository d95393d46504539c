import Contracts
import FoundationEssentials
import ModuleKit

/// The logic of Geo's places (the "I" of SILVER): validates and changes saved cities. It
/// reaches its services through the locator and never builds them.
public final class PlacesInteractor {
    @Injected var storage: any GeoStorageService
    @Injected var regions: RegionCatalog
    let locale: LocaleSetting

    public static let maximumNameLength = 100

    public init(resolver: ModuleResolver, locale: LocaleSetting) throws {
        _storage = try Injected(resolver)
        _regions = try Injected(resolver)
        self.locale = locale
    }

    /// Saved cities grouped by country; countries sorted by their name in the current locale,
    /// cities by their folded name.
    public func groups() throws -> [CountryGroup] {
        var byCountry: [String: [City]] = [:]
        try storage.forEachCity { byCountry[$0.country, default: []].append($0) }
        let code = locale.current
        let groups = byCountry.map {
            CountryGroup(country: Country(code: $0.key, name: regions.name(of: $0.key, locale: code)), cities: $0.value)
        }
        return RegionCatalog.sortedByName(groups) { $0.country.name }
    }

    /// The country `text` names, or ``GeoError/unknownCountry(_:suggestions:)`` with the closest.
    public func country(_ text: String) throws(GeoError) -> Country {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { throw GeoError.emptyName }
        try Self.checkCharacters(trimmed)
        guard let country = regions.country(matching: trimmed, locale: locale.current) else {
            throw GeoError.unknownCountry(trimmed, suggestions: regions.suggestions(for: trimmed, locale: locale.current))
        }
        return country
    }

    /// A city name trimmed and checked: not empty, not too long, no control characters.
    public func cityName(_ text: String) throws(GeoError) -> String {
        let name = text.trimmingSpaces()
        guard !name.isEmpty else { throw GeoError.emptyName }
        guard name.count <= Self.maximumNameLength else { throw GeoError.nameTooLong(limit: Self.maximumNameLength) }
        try Self.checkCharacters(name)
        return name
    }

    public func add(country countryText: String, city cityText: String) throws(GeoError) -> City {
        let country = try country(countryText)
        let city = City(country: country.code, name: try cityName(cityText))
        try store { try storage.add(city, sortKey: Self.sortKey(city.name)) }
        return city
    }

    public func rename(country countryText: String, city cityText: String, to newText: String) throws(GeoError) -> City {
        let country = try country(countryText)
        let city = City(country: country.code, name: try cityName(cityText))
        let newName = try cityName(newText)
        try store { try storage.rename(city, to: newName, sortKey: Self.sortKey(newName)) }
        return City(country: country.code, name: newName)
    }

    public func remove(country countryText: String, city cityText: String) throws(GeoError) -> City {
        let city = City(country: try country(countryText).code, name: try cityName(cityText))
        try store { try storage.remove(city) }
        return city
    }

    /// Every country as a suggestion for the country question: named in the current language
    /// with its code, found by its name in any shipped language and by its code; `preferred`
    /// (Settings' default country) first, the rest in the language's order.
    public func countrySuggestions(preferred: String?) -> [Suggestion] {
        let current = locale.current
        let named: [(name: String, suggestion: Suggestion)] = regions.codes.map { code in
            let name = regions.name(of: code, locale: current)
            let terms = [code] + ModuleStrings.shippedLocales.map { regions.name(of: code, locale: $0) }
            return (name, Suggestion("\(name) (\(code))", value: code, terms: terms))
        }
        let all = RegionCatalog.sortedByName(named) { $0.name }.map(\.suggestion)
        guard let preferred, let first = all.firstIndex(where: { $0.value == preferred }) else { return all }
        return [all[first]] + all.enumerated().filter { $0.offset != first }.map(\.element)
    }

    public func countryName(_ code: String) -> String {
        regions.name(of: code, locale: locale.current)
    }

    static func sortKey(_ name: String) -> String {
        RegionCatalog.fold(name)
    }

    private static func checkCharacters(_ text: String) throws(GeoError) {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }) {
            throw GeoError.controlCharacters
        }
    }

    /// Runs a storage call; names the country (not its code) in Geo's own errors.
    private func store(_ body: () throws -> Void) throws(GeoError) {
        do {
            try body()
        } catch GeoError.duplicate(let city, let code) {
            throw GeoError.duplicate(city: city, country: countryName(code))
        } catch GeoError.notFound(let city, let code) {
            throw GeoError.notFound(city: city, country: countryName(code))
        } catch let error as GeoError {
            throw error
        } catch {
            throw GeoError.storage("\(error)")
        }
    }

    /// Every saved city with its country's name in the current locale, as the route gives them.
    func savedCities() throws -> [SavedCity] {
        try groups().flatMap { group in
            group.cities.map { SavedCity(country: group.country.code, countryName: group.country.name, city: $0.name) }
        }
    }
}
