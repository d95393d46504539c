/// A saved city: the country's ISO code and the city's name (Entity layer of SILVER).
public struct City: Sendable, Hashable, Codable {
    public let country: String
    public let name: String

    public init(country: String, name: String) {
        self.country = country
        self.name = name
    }
}

/// A country: its ISO 3166 code and its name in the current locale.
public struct Country: Sendable, Hashable {
    public let code: String
    public let name: String

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

/// The saved cities of one country, in display order.
public struct CountryGroup: Sendable, Equatable {
    public let country: Country
    public let cities: [City]
}
