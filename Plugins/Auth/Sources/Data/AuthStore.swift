import Contracts
import ModuleKit

/// Auth's tables in its own database: users, the current session, reset tokens by digest,
/// and failure counts for throttling.
public final class AuthStore: Sendable {
    static let migrations = [
        Migration(
            version: 1,
            """
            CREATE TABLE user (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE session (
                slot INTEGER PRIMARY KEY CHECK (slot = 1),
                user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                since INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE reset_token (
                digest TEXT PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            )
            """,
            "CREATE TABLE failure (email TEXT PRIMARY KEY, count INTEGER NOT NULL, locked_until INTEGER NOT NULL)"
        )
    ]

    /// A stored account.
    public struct Account: Sendable, Equatable {
        public let id: Int64
        public let email: String
        public let name: String
        public let passwordHash: String

        public var user: AuthUser { AuthUser(email: email, name: name) }
    }

    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Opens Auth's database in its storage, migrating it.
    public convenience init(storage: ModuleStorage) throws(StorageError) {
        self.init(database: try storage.database(named: "auth", migrations: Self.migrations))
    }

    public func account(email: String) throws -> Account? {
        try database.read { try Self.account(in: &$0, where: "email = ?", .text(email)) }
    }

    /// Inserts an account and makes it the current session, in one transaction.
    ///
    /// - Throws: ``AuthError/emailTaken`` when the email exists (also when another process
    ///   registered it a moment before).
    public func createAccount(email: String, name: String, passwordHash: String, now: Int64) throws -> Account {
        do {
            return try database.transaction { transaction in
                try transaction.execute(
                    "INSERT INTO user (email, name, password_hash, created_at) VALUES (?, ?, ?, ?)",
                    [.text(email), .text(name), .text(passwordHash), .integer(now)])
                let id = transaction.lastInsertedRowID
                try Self.setSession(in: &transaction, userID: id, now: now)
                return Account(id: id, email: email, name: name, passwordHash: passwordHash)
            }
        } catch let error as StorageError where error.kind == .constraint {
            throw AuthError.emailTaken
        }
    }

    /// The signed-in account; `nil` when nobody is, also before the first account is made
    /// (then the database is not made just to answer).
    public func currentAccount() throws -> Account? {
        let account = try database.readIfMade { transaction in
            try Self.account(in: &transaction, where: "id = (SELECT user_id FROM session WHERE slot = 1)")
        }
        return account ?? nil
    }

    public func setSession(userID: Int64, now: Int64) throws {
        try database.transaction { try Self.setSession(in: &$0, userID: userID, now: now) }
    }

    public func clearSession() throws {
        try database.transaction { try $0.execute("DELETE FROM session") }
    }

    public func updateName(userID: Int64, name: String) throws {
        try database.transaction { try $0.execute("UPDATE user SET name = ? WHERE id = ?", [.text(name), .integer(userID)]) }
    }

    public func updatePasswordHash(userID: Int64, hash: String) throws {
        try database.transaction {
            try $0.execute("UPDATE user SET password_hash = ? WHERE id = ?", [.text(hash), .integer(userID)])
        }
    }

    // MARK: - Reset tokens

    public func storeResetToken(digest: String, userID: Int64, expiresAt: Int64) throws {
        try database.transaction {
            try $0.execute(
                "INSERT INTO reset_token (digest, user_id, expires_at) VALUES (?, ?, ?)",
                [.text(digest), .integer(userID), .integer(expiresAt)])
        }
    }

    /// Marks the token used and sets the new password hash, in one transaction, if the token
    /// exists, is unused and has not expired.
    ///
    /// - Throws: ``AuthError/invalidToken`` or ``AuthError/expiredToken``.
    public func redeemResetToken(digest: String, newHash: String, now: Int64) throws -> Account {
        try database.transaction { transaction in
            let rows = try transaction.query(
                "SELECT user_id, expires_at, used_at FROM reset_token WHERE digest = ?", [.text(digest)])
            guard let row = rows.first, let userID = row.integer("user_id"), row["used_at"] == .null else {
                throw AuthError.invalidToken
            }
            guard let expiresAt = row.integer("expires_at"), now < expiresAt else { throw AuthError.expiredToken }
            try transaction.execute("UPDATE reset_token SET used_at = ? WHERE digest = ?", [.integer(now), .text(digest)])
            try transaction.execute("UPDATE user SET password_hash = ? WHERE id = ?", [.text(newHash), .integer(userID)])
            try transaction.execute("DELETE FROM failure WHERE email = (SELECT email FROM user WHERE id = ?)", [.integer(userID)])
            guard let account = try Self.account(in: &transaction, where: "id = ?", .integer(userID)) else {
                throw AuthError.invalidToken
            }
            return account
        }
    }

    // MARK: - Failures

    /// Seconds the account stays locked at `now` (0 when it is not).
    public func lockRemaining(email: String, now: Int64) throws -> Int64 {
        try database.read { transaction in
            let lockedUntil =
                try transaction.query("SELECT locked_until FROM failure WHERE email = ?", [.text(email)]).first?
                .integer("locked_until") ?? 0
            return max(0, lockedUntil - now)
        }
    }

    /// Counts one more failure and locks the account as `policy` says.
    public func recordFailure(email: String, now: Int64, policy: ThrottlePolicy) throws {
        try database.transaction { transaction in
            let count =
                (try transaction.query("SELECT count FROM failure WHERE email = ?", [.text(email)]).first?.integer("count") ?? 0) + 1
            let lock = Int64(policy.lockSeconds(afterFailures: Int(count)))
            try transaction.execute(
                "INSERT INTO failure (email, count, locked_until) VALUES (?, ?, ?) ON CONFLICT(email) DO UPDATE SET count = excluded.count, locked_until = excluded.locked_until",
                [.text(email), .integer(count), .integer(lock > 0 ? now + lock : 0)])
        }
    }

    public func clearFailures(email: String) throws {
        try database.transaction { try $0.execute("DELETE FROM failure WHERE email = ?", [.text(email)]) }
    }

    // MARK: -

    private static func setSession(in transaction: inout Transaction, userID: Int64, now: Int64) throws {
        try transaction.execute(
            "INSERT INTO session (slot, user_id, since) VALUES (1, ?, ?) ON CONFLICT(slot) DO UPDATE SET user_id = excluded.user_id, since = excluded.since",
            [.integer(userID), .integer(now)])
    }

    private static func account(in transaction: inout Transaction, where condition: String, _ bindings: SQLValue...) throws -> Account? {
        let rows = try transaction.query("SELECT id, email, name, password_hash FROM user WHERE \(condition)", bindings)
        guard let row = rows.first, let id = row.integer("id"), let email = row.string("email"), let name = row.string("name"),
            let hash = row.string("password_hash")
        else { return nil }
        return Account(id: id, email: email, name: name, passwordHash: hash)
    }
}
