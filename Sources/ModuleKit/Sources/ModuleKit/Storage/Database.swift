import CSQLite
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// A module's SQLite database: WAL, durable commits, a busy timeout, versioned migrations.
/// Opened and migrated on its first read or write (not when it is made).
///
/// Every change happens in a transaction; a transaction that returns has committed with
/// `synchronous=FULL`, so the change survives the process being killed. One connection per
/// database, used by one thread at a time.
///
/// ```swift
/// let db = try context.storage.database(migrations: [
///     Migration(version: 1, "CREATE TABLE city (name TEXT NOT NULL, country TEXT NOT NULL)"),
/// ])
/// try db.transaction { try $0.execute("INSERT INTO city VALUES (?, ?)", ["Lyon", "FR"]) }
/// let rows = try db.read { try $0.query("SELECT name FROM city ORDER BY name") }
/// ```
public final class Database: Sendable {
    /// The database file.
    public let path: String
    /// Nil until the first use opens it (and again after an opening failed, to retry).
    private let connection: Mutex<Connection?>
    private let migrations: [Migration]
    /// Checks the file and the files beside it before SQLite opens it.
    private let prepare: @Sendable () throws(StorageError) -> Void
    /// Whether the file is there (checked as `prepare` checks it), for ``readIfMade(_:)``.
    private let isMade: @Sendable () throws(StorageError) -> Bool

    /// Wraps the raw handle; only touched under `connection`'s lock (exercised from many threads
    /// by `StorageTests.oneDatabaseFromManyThreads`).
    struct Connection: @unchecked Sendable {
        let handle: OpaquePointer
    }

    /// How long a write waits for another process's write to finish.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    init(
        path: String, migrations: [Migration], prepare: @escaping @Sendable () throws(StorageError) -> Void = {},
        isMade: @escaping @Sendable () throws(StorageError) -> Bool = { true }
    ) {
        self.path = path
        self.migrations = migrations
        self.prepare = prepare
        self.isMade = isMade
        connection = Mutex(nil)
    }

    /// Opens the file, sets WAL and durability, and migrates; called under the lock.
    private func open() throws(StorageError) -> Connection {
        try prepare()
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw StorageError(.open, "cannot open database '\(path)': \(message)")
        }
        let opened = Connection(handle: handle)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        do throws(StorageError) {
            // Switching to WAL takes an exclusive lock without waiting on the busy handler, so a
            // second process opening the same new database retries for the busy timeout.
            try Self.retryingWhileBusy { () throws(StorageError) in
                var transaction = Transaction(handle: handle, path: path)
                _ = try transaction.query("PRAGMA journal_mode=WAL")
                try transaction.execute("PRAGMA synchronous=FULL")
                try transaction.execute("PRAGMA foreign_keys=ON")
            }
            try Self.retryingWhileBusy { () throws(StorageError) in try migrate(opened) }
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        return opened
    }

    /// Runs `body` again while it fails with `.busy`, for up to the busy timeout.
    private static func retryingWhileBusy(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(busyTimeoutMilliseconds) * 1_000_000
        while true {
            do {
                return try body()
            } catch  where error.kind == .busy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(10_000)
            }
        }
    }

    deinit {
        connection.withLock { if let handle = $0?.handle { sqlite3_close_v2(handle) } }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) and commits; rolls back if it
    /// throws.
    ///
    /// - Throws: ``StorageError`` (`.busy` when another process holds the database past the
    ///   busy timeout), or what `body` throws.
    public func transaction<T>(_ body: (inout Transaction) throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction: a consistent snapshot, no writes.
    public func read<T>(_ body: (inout Transaction) throws -> T) throws -> T {
        try run("BEGIN DEFERRED", body)
    }

    /// Runs `body` in a read transaction, or answers `nil` without making the database when
    /// it has never been made: a question like "who is signed in?" needs no database (nor
    /// SQLite's memory) before the first write.
    ///
    /// - Throws: ``StorageError`` when the file is there but refused or unreadable, or what
    ///   `body` throws.
    public func readIfMade<T>(_ body: (inout Transaction) throws -> T) throws -> T? {
        let isOpen = connection.withLock { $0 != nil }
        guard try isOpen || isMade() else { return nil }
        return try read(body)
    }

    private func run<T>(_ begin: String, _ body: (inout Transaction) throws -> T) throws -> T {
        try connection.withLock { connection in
            let open = try connection ?? self.open()
            connection = open
            var transaction = Transaction(handle: open.handle, path: path)
            try transaction.execute(begin)
            do {
                let result = try body(&transaction)
                try transaction.execute("COMMIT")
                return result
            } catch {
                try? transaction.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// One write transaction on `connection` (the migrations', before the first use sees it).
    private static func write(on connection: Connection, path: String, _ body: (inout Transaction) throws -> Void) throws {
        var transaction = Transaction(handle: connection.handle, path: path)
        try transaction.execute("BEGIN IMMEDIATE")
        do {
            try body(&transaction)
            try transaction.execute("COMMIT")
        } catch {
            try? transaction.execute("ROLLBACK")
            throw error
        }
    }

    /// Brings the schema to the newest migration, in one transaction.
    private func migrate(_ connection: Connection) throws(StorageError) {
        let sorted = migrations.sorted { $0.version < $1.version }
        let newest = sorted.last?.version ?? 0
        do {
            try Self.write(on: connection, path: path) { transaction in
                let current = try transaction.query("PRAGMA user_version").first?.integer("user_version") ?? 0
                guard current <= newest else {
                    throw StorageError(
                        .newerSchema,
                        "database '\(path)' has schema version \(current), newer than this module knows (\(newest)); use a newer module")
                }
                for migration in sorted where migration.version > current {
                    for statement in migration.statements {
                        try transaction.execute(statement)
                    }
                    try transaction.execute("PRAGMA user_version = \(migration.version)")
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.sqlite, "migrating '\(path)': \(error)")
        }
    }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int64 {
        try read { try $0.query("PRAGMA user_version").first?.integer("user_version") ?? 0 }
    }
}

/// One schema step: applied once, in version order, inside a transaction.
public struct Migration: Sendable {
    public let version: Int64
    public let statements: [String]

    public init(version: Int64, _ statements: String...) {
        self.version = version
        self.statements = statements
    }
}
