import Contracts
import ModuleKit

/// Typed values by module and key in Settings' database (a small key-value store).
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
    private let storage: ModuleStorage

    public init(storage: ModuleStorage) throws(StorageError) {
        self.storage = storage
        database = try storage.database(named: "settings", migrations: Self.migrations)
    }

    /// The app's language and the environment's language when it was chosen, as stored: what
    /// every start reads before anything is shown. Kept also in a small file beside the
    /// database (rewritten with every change of either), so that a start reads it without
    /// opening SQLite; a missing or unreadable file is made again from the database.
    public func storedLanguage(_ language: SettingName, base: SettingName) -> (code: String?, base: String?) {
        if let bytes = try? storage.files().read(Self.languageFile, limit: 256) {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 2 {
                return (lines[0].isEmpty ? nil : String(lines[0]), lines[1].isEmpty ? nil : String(lines[1]))
            }
        }
        // No database yet: nothing was ever stored, and nothing needs opening to know it.
        let databaseExists = ((try? storage.files().info(Self.databaseFile)) ?? nil) != nil
        let stored =
            databaseExists ? (Self.text(value(of: language)), Self.text(value(of: base))) : (nil, nil)
        rememberLanguage(stored)
        return stored
    }

    /// The file beside the database that mirrors the language choice.
    static let languageFile = "language"
    static let databaseFile = "settings.sqlite"

    /// Writes the language file; called with every change of the language choice.
    func rememberLanguage(_ language: (code: String?, base: String?)) {
        let text = "\(language.code ?? "")\n\(language.base ?? "")\n"
        try? storage.files().write(Self.languageFile, Array(text.utf8))
    }

    private static func text(_ value: SettingValue?) -> String? {
        if case .text(let text)? = value { return text }
        return nil
    }

    /// The stored value of `name`; modules are stored in lowercase, so any case finds it.
    public func value(of name: SettingName) -> SettingValue? {
        let rows = try? database.read {
            try $0.query(
                "SELECT kind, value FROM setting WHERE module = ? AND key = ?", [.text(name.module.lowercased()), .text(name.key)])
        }
        guard let row = rows?.first, let kind = row.string("kind"), let text = row.string("value") else { return nil }
        switch kind {
        case "bool": return .bool(text == "1")
        case "int": return Int(text).map(SettingValue.int)
        default: return .text(text)
        }
    }

    public func set(_ value: SettingValue, for name: SettingName) throws {
        let (kind, text): (String, String) =
            switch value {
            case .bool(let flag): ("bool", flag ? "1" : "0")
            case .int(let number): ("int", "\(number)")
            case .text(let text): ("text", text)
            // A kind of value from a later SDK, which this store cannot write back as it was.
            @unknown default: throw SettingsError.refused("\(value)")
            }
        try database.transaction {
            try $0.execute(
                "INSERT INTO setting (module, key, kind, value) VALUES (?, ?, ?, ?) ON CONFLICT(module, key) DO UPDATE SET kind = excluded.kind, value = excluded.value",
                [.text(name.module.lowercased()), .text(name.key), .text(kind), .text(text)])
        }
    }
}
