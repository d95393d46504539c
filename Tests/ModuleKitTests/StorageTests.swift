import Foundation
import ModuleKit
import Testing

func temporaryStorage(_ module: String = "Geo") -> ModuleStorage {
    ModuleStorage(dataFolder: NSTemporaryDirectory() + "storage-tests-" + UUID().uuidString, module: module)
}

func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
}

let citySchema = Migration(version: 1, "CREATE TABLE city (name TEXT NOT NULL UNIQUE, country TEXT NOT NULL)")

@Suite struct StorageTests {
    @Test func aModuleGetsAPrivateFolderAndPrivateFiles() throws {
        let storage = temporaryStorage()
        let database = try storage.database(migrations: [citySchema])
        try database.transaction { try $0.execute("INSERT INTO city VALUES ('Lyon', 'FR')") }
        #expect(try mode(storage.folder) == 0o700)
        #expect(try mode(database.path) == 0o600)
        #expect(try mode(database.path + "-wal") == 0o600)
        #expect(database.path == storage.folder + "/data.sqlite")
    }

    @Test(arguments: ["../Auth/auth", "/etc/passwd", "a/b", "", ".."])
    func aModuleCannotReachOutsideItsFolder(name: String) {
        let storage = temporaryStorage()
        #expect(throws: StorageError.self) { try storage.files().append(name, [1]) }
        #expect(throws: StorageError.self) { try storage.files().read(name) }
        #expect(throws: StorageError.self) { try storage.files(in: name) }
    }

    /// A file is read whole up to its limit, and refused one byte past it, whatever the limit
    /// (the buffer is sized by it), a limit below zero included.
    @Test func aFileIsReadUpToItsLimit() throws {
        let files = try temporaryStorage().files()
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        try files.write("big", bytes)
        try files.write("small", Array(bytes.prefix(256)))
        try files.write("empty", [])
        #expect(try files.read("big") == bytes)
        #expect(try files.read("big", limit: 70_000) == bytes)
        #expect(throws: StorageError.self) { try files.read("big", limit: 69_999) }
        #expect(try files.read("small", limit: 256) == Array(bytes.prefix(256)))
        let error = #expect(throws: StorageError.self) { try files.read("small", limit: 255) }
        #expect(error?.message.hasSuffix("is larger than the 255 bytes accepted") == true)
        #expect(try files.read("empty", limit: 0) == [])
        #expect(throws: StorageError.self) { try files.read("small", limit: -1) }
        #expect(try files.read("missing", limit: 10) == nil)
    }

    @Test(arguments: ["", ".", "..", "...", ".hidden"])
    func aDatabaseNameThatIsNoNameIsRefused(name: String) throws {
        let storage = temporaryStorage()
        let error = #expect(throws: StorageError.self) { try storage.database(named: name, migrations: [citySchema]) }
        #expect(error?.message == "'\(name)' is not a plain database name; use letters, digits, '-' and '_'")
        #expect(!FileManager.default.fileExists(atPath: storage.folder), "nothing was made")
    }

    @Test func aDatabaseIsOpenedOnItsFirstUseNotWhenMade() throws {
        let storage = temporaryStorage()
        let database = try storage.database(migrations: [citySchema])
        #expect(!FileManager.default.fileExists(atPath: storage.folder), "nothing on disk yet, not even the folder")
        #expect(try database.schemaVersion() == 1)
        #expect(FileManager.default.fileExists(atPath: database.path))
        #expect(throws: StorageError.self) { try storage.database(named: "../escape", migrations: []) }
    }

    /// A question asked before the first write ("who is signed in?") is answered without
    /// making the database; once it is made, it is read; a link planted in its place is refused.
    @Test func aReadIfMadeMakesNoDatabase() throws {
        let storage = temporaryStorage()
        let database = try storage.database(migrations: [citySchema])
        let before = try database.readIfMade { try $0.query("SELECT name FROM city").count }
        #expect(before == nil)
        #expect(!FileManager.default.fileExists(atPath: database.path))
        try database.transaction { try $0.execute("INSERT INTO city VALUES ('Lyon', 'FR')") }
        #expect(try database.readIfMade { try $0.query("SELECT name FROM city").count } == 1)
        // A new process (a new Database) finds the file on disk.
        let reopened = try storage.database(migrations: [citySchema])
        #expect(try reopened.readIfMade { try $0.query("SELECT name FROM city").count } == 1)

        let planted = temporaryStorage()
        let target = try storage.database(migrations: [citySchema]).path
        try FileManager.default.createDirectory(atPath: planted.folder, withIntermediateDirectories: true)
        chmod(planted.folder, 0o700)
        try FileManager.default.createSymbolicLink(atPath: planted.folder + "/data.sqlite", withDestinationPath: target)
        let refused = try planted.database(migrations: [citySchema])
        #expect(throws: StorageError.self) { try refused.readIfMade { try $0.query("SELECT name FROM city").count } }
    }

    @Test func oneDatabaseFromManyThreads() throws {
        let database = try temporaryStorage().database(migrations: [Migration(version: 1, "CREATE TABLE n (x INTEGER)")])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<25 {
                _ = try? database.transaction { try $0.execute("INSERT INTO n VALUES (?)", [.integer(Int64(thread * 100 + index))]) }
            }
        }
        let rows = try database.read { try $0.query("SELECT count(*) AS c FROM n") }
        #expect(rows.first?.integer("c") == 200)
    }

    @Test func migrationsRunOnceInVersionOrder() throws {
        let storage = temporaryStorage()
        let first = try storage.database(migrations: [citySchema])
        try first.transaction { try $0.execute("INSERT INTO city VALUES ('Lyon', 'FR')") }
        #expect(try first.schemaVersion() == 1)
        let second = Migration(version: 2, "ALTER TABLE city ADD COLUMN population INTEGER", "UPDATE city SET population = 0")
        let reopened = try storage.database(migrations: [second, citySchema])
        #expect(try reopened.schemaVersion() == 2)
        let rows = try reopened.read { try $0.query("SELECT name, population FROM city") }
        #expect(rows.count == 1)
        #expect(rows.first?.string("name") == "Lyon")
        #expect(rows.first?.integer("population") == 0)
        // Opening again applies nothing twice (ALTER TABLE would fail if it did).
        #expect(try storage.database(migrations: [citySchema, second]).schemaVersion() == 2)
    }

    @Test func aNewerDatabaseIsRefusedNotDamaged() throws {
        let storage = temporaryStorage()
        _ = try storage.database(migrations: [citySchema, Migration(version: 2, "CREATE TABLE extra (x)")]).schemaVersion()
        let error = #expect(throws: StorageError.self) { try storage.database(migrations: [citySchema]).schemaVersion() }
        #expect(error?.kind == .newerSchema)
        #expect(error?.message.hasSuffix("has schema version 2, newer than this module knows (1); use a newer module") == true)
    }

    @Test func aFailedMigrationLeavesTheOldVersion() throws {
        let storage = temporaryStorage()
        _ = try storage.database(migrations: [citySchema]).schemaVersion()
        #expect(throws: StorageError.self) {
            try storage.database(migrations: [citySchema, Migration(version: 2, "CREATE TABLE ok (x)", "THIS IS NOT SQL")]).schemaVersion()
        }
        let database = try storage.database(migrations: [citySchema])
        #expect(try database.schemaVersion() == 1)
        #expect(try database.read { try $0.query("SELECT name FROM sqlite_master WHERE name = 'ok'") }.isEmpty)
    }

    @Test func aTransactionThatThrowsRollsBack() throws {
        struct Abort: Error {}
        let database = try temporaryStorage().database(migrations: [citySchema])
        #expect(throws: Abort.self) {
            try database.transaction { transaction in
                try transaction.execute("INSERT INTO city VALUES (?, ?)", ["Rome", "IT"])
                throw Abort()
            }
        }
        #expect(try database.read { try $0.query("SELECT * FROM city") }.isEmpty)
    }

    @Test func constraintsAndSyntaxErrorsAreStorageErrors() throws {
        let database = try temporaryStorage().database(migrations: [citySchema])
        try database.transaction { try $0.execute("INSERT INTO city VALUES (?, ?)", ["Oslo", "NO"]) }
        let duplicate = #expect(throws: StorageError.self) {
            try database.transaction { try $0.execute("INSERT INTO city VALUES (?, ?)", ["Oslo", "NO"]) }
        }
        #expect(duplicate?.kind == .constraint)
        #expect(duplicate?.message.hasSuffix("UNIQUE constraint failed: city.name") == true)
        let syntax = #expect(throws: StorageError.self) { try database.read { try $0.query("SELEC 1") } }
        #expect(syntax?.kind == .sqlite)
    }

    @Test func valuesRoundTripByType() throws {
        let database = try temporaryStorage().database(migrations: [Migration(version: 1, "CREATE TABLE t (a, b, c, d, e)")])
        let text = "naïve '; DROP TABLE t; -- \u{1F30D}"
        try database.transaction {
            try $0.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(-7), .real(2.5), .text(text), .blob([0, 255, 1]), .null])
        }
        let row = try #require(try database.read { try $0.query("SELECT * FROM t") }.first)
        #expect(row["a"] == .integer(-7))
        #expect(row["b"] == .real(2.5))
        #expect(row["c"] == .text(text))
        #expect(row["d"] == .blob([0, 255, 1]))
        #expect(row["e"] == .null)
        #expect(row["missing"] == .null)
    }

    @Test func twoConnectionsSeeEachOthersCommits() throws {
        let storage = temporaryStorage()
        let writer = try storage.database(migrations: [citySchema])
        let reader = try storage.database(migrations: [citySchema])
        try writer.transaction { try $0.execute("INSERT INTO city VALUES ('Kyiv', 'UA')") }
        #expect(try reader.read { try $0.query("SELECT name FROM city") }.first?.string("name") == "Kyiv")
    }
}
