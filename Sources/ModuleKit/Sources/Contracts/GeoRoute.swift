/// A city someone saved in Geo.
public struct SavedCity: Sendable, Hashable, Codable {
    /// ISO 3166 region code (`FR`).
    public let country: String
    /// The country's name in the current locale (`France`, `Frankreich`).
    public let countryName: String
    /// The city's name as saved.
    public let city: String

    public init(country: String, countryName: String, city: String) {
        self.country = country
        self.countryName = countryName
        self.city = city
    }
}

/// Provided by Geo: the saved cities, and a picker other modules present (Photos uses it to
/// search photos of a saved city).
public protocol GeoRoute: Sendable {
    /// Every saved city, grouped by country, sorted for the current locale.
    func savedCities() throws -> [SavedCity]

    /// Shows Geo's city picker on top of the app; `completion` gets the chosen city, or `nil`
    /// when the person backs out.
    @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void)
}
