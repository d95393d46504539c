import Contracts
import ModuleKit

/// Typed values by module and key in Settings' database (the seed's NSUserDefaults idea).
public final class SettingsStore: Sendable {
    static let migrations = [
        Migration(
            version: 1,
            """
            CREATE TABLE setting (
                module TEXT NOT NULL,
                key TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('bool', 'int', 'text')),
                value TEXT NOT NULL,
                PRIMARY KEY (module, key)
            )
            """
        )
    ]

    let database: Database

    public init(storage: ModuleStorage) throws(StorageError) {
        database = try storage.database(named: "settings", migrations: Self.migrations)
    }

    public func value(module: String, key: String) -> SettingValue? {
        let rows = try? database.read {
            try $0.query("SELECT kind, value FROM setting WHERE module = ? AND key = ?", [.text(module.lowercased()), .text(key)])
        }
        guard let row = rows?.first, let kind = row.string("kind"), let text = row.string("value") else { return nil }
        switch kind {
        case "bool": return .bool(text == "1")
        case "int": return Int(text).map(SettingValue.int)
        default: return .text(text)
        }
    }

    public func set(_ value: SettingValue, module: String, key: String) throws {
        let (kind, text): (String, String) =
            switch value {
            case .bool(let flag): ("bool", flag ? "1" : "0")
            case .int(let number): ("int", "\(number)")
            case .text(let text): ("text", text)
            }
        try database.transaction {
            try $0.execute(
                "INSERT INTO setting (module, key, kind, value) VALUES (?, ?, ?, ?) ON CONFLICT(module, key) DO UPDATE SET kind = excluded.kind, value = excluded.value",
                [.text(module.lowercased()), .text(key), .text(kind), .text(text)])
        }
    }
}
