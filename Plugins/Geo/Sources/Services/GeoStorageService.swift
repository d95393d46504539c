import ModuleKit

/// Where Geo keeps cities: a service in the locator, with a test double.
public protocol GeoStorageService: Sendable {
    /// Hands every city to `body`, by country code, then by sort key.
    func forEachCity(_ body: (City) throws -> Void) throws
    /// Adds `city`; ``GeoError/duplicate(city:country:)`` when the country has it already.
    func add(_ city: City, sortKey: String) throws
    /// Renames `city`; ``GeoError/notFound(city:country:)`` or ``GeoError/duplicate(city:country:)``.
    func rename(_ city: City, to name: String, sortKey: String) throws
    /// Removes `city`; ``GeoError/notFound(city:country:)`` when it is not saved.
    func remove(_ city: City) throws
    func count() throws -> Int
}

/// Geo's cities in its SQLite database. Names are unique per country ignoring case and
/// accents (`match_key`); `sort_key` orders them.
public final class SQLiteGeoStorage: GeoStorageService {
    static let migrations = [
        Migration(
            version: 1,
            """
            CREATE TABLE city (
                id INTEGER PRIMARY KEY,
                country TEXT NOT NULL,
                name TEXT NOT NULL,
                match_key TEXT NOT NULL,
                sort_key TEXT NOT NULL,
                UNIQUE (country, match_key)
            )
            """,
            "CREATE INDEX city_order ON city (country, sort_key, name)"
        )
    ]

    public let database: Database

    public init(storage: ModuleStorage) throws(StorageError) {
        database = try storage.database(named: "geo", migrations: Self.migrations)
    }

    public func forEachCity(_ body: (City) throws -> Void) throws {
        try database.read { transaction in
            var failure: (any Error)?
            try transaction.forEachRow("SELECT country, name FROM city ORDER BY country, sort_key, name") { row in
                guard failure == nil, let country = row.string("country"), let name = row.string("name") else { return }
                do { try body(City(country: country, name: name)) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    public func add(_ city: City, sortKey: String) throws {
        do {
            try database.transaction {
                try $0.execute(
                    "INSERT INTO city (country, name, match_key, sort_key) VALUES (?, ?, ?, ?)",
                    [.text(city.country), .text(city.name), .text(RegionCatalog.fold(city.name)), .text(sortKey)])
            }
        } catch let error as StorageError where error.kind == .constraint {
            throw GeoError.duplicate(city: city.name, country: city.country)
        }
    }

    public func rename(_ city: City, to name: String, sortKey: String) throws {
        do {
            try database.transaction { transaction in
                try transaction.execute(
                    "UPDATE city SET name = ?, match_key = ?, sort_key = ? WHERE country = ? AND match_key = ?",
                    [
                        .text(name), .text(RegionCatalog.fold(name)), .text(sortKey), .text(city.country),
                        .text(RegionCatalog.fold(city.name)),
                    ])
                if transaction.changes == 0 { throw GeoError.notFound(city: city.name, country: city.country) }
            }
        } catch let error as StorageError where error.kind == .constraint {
            throw GeoError.duplicate(city: name, country: city.country)
        }
    }

    public func remove(_ city: City) throws {
        try database.transaction { transaction in
            try transaction.execute(
                "DELETE FROM city WHERE country = ? AND match_key = ?", [.text(city.country), .text(RegionCatalog.fold(city.name))])
            if transaction.changes == 0 { throw GeoError.notFound(city: city.name, country: city.country) }
        }
    }

    public func count() throws -> Int {
        try database.read { Int(try $0.query("SELECT count(*) AS n FROM city").first?.integer("n") ?? 0) }
    }
}
