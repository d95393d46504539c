import ModuleKit

/// Why Geo refused an input or an operation; each has a localized message.
public enum GeoError: Error, Equatable, Sendable {
    case emptyName
    case nameTooLong(limit: Int)
    case controlCharacters
    /// No ISO 3166 country matches; carries the closest names.
    case unknownCountry(String, suggestions: [String])
    case duplicate(city: String, country: String)
    case notFound(city: String, country: String)
    case storage(String)

    public func message(_ strings: ModuleStrings) -> String {
        switch self {
        case .emptyName: strings[.errorEmptyName]
        case .nameTooLong(let limit): strings.format(.errorNameTooLong, "\(limit)")
        case .controlCharacters: strings[.errorControlCharacters]
        case .unknownCountry(let text, let suggestions):
            suggestions.isEmpty
                ? strings.format(.errorUnknownCountry, text)
                : strings.format(.errorUnknownCountrySuggest, text, suggestions.joined(separator: ", "))
        case .duplicate(let city, let country): strings.format(.errorDuplicate, city, country)
        case .notFound(let city, let country): strings.format(.errorNotFound, city, country)
        case .storage(let message): strings.format(.errorStorage, message)
        }
    }
}
