import Foundation
import ModuleKit
import Synchronization
import Testing

/// What a module's storage refuses and repairs, with real files: planted symlinks, loose
/// modes, someone else's files, a shared folder as the data folder.
@Suite struct StorageSecurityTests {
    final class Reports: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    func storage(_ reports: Reports = Reports()) -> (ModuleStorage, String) {
        let data = NSTemporaryDirectory() + "storage-security-" + UUID().uuidString
        return (ModuleStorage(dataFolder: data, module: "Auth") { line in reports.lines.withLock { $0.append(line) } }, data)
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test func aSymlinkPlantedInPlaceOfAFileIsRefusedAndItsTargetUntouched() throws {
        let (storage, _) = storage()
        let folder = try storage.files()
        let target = NSTemporaryDirectory() + "attacker-" + UUID().uuidString
        #expect(FileManager.default.createFile(atPath: target, contents: Data("attacker's file\n".utf8)))
        #expect(symlink(target, folder.path + "/outbox.txt") == 0)
        let error = #expect(throws: StorageError.self) { try folder.append("outbox.txt", Array("token 1234\n".utf8)) }
        #expect(
            error?.message
                == "'\(folder.path)/outbox.txt' is a symlink; a module's data is never reached through one, so it is refused — remove it")
        #expect(throws: StorageError.self) { try folder.read("outbox.txt") }
        #expect(throws: StorageError.self) { try folder.write("outbox.txt", [1]) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "attacker's file\n")
    }

    @Test(arguments: ["auth.sqlite", "auth.sqlite-wal", "auth.sqlite-shm", "auth.sqlite-journal"])
    func aSymlinkInPlaceOfADatabaseOrItsCompanionsIsRefused(name: String) throws {
        let (storage, _) = storage()
        let folder = try storage.files()
        let target = NSTemporaryDirectory() + "attacker-db-" + UUID().uuidString
        #expect(FileManager.default.createFile(atPath: target, contents: Data()))
        #expect(symlink(target, folder.path + "/" + name) == 0)
        let error = #expect(throws: StorageError.self) {
            // Made at once, checked and opened on first use.
            try storage.database(named: "auth", migrations: [Migration(version: 1, "CREATE TABLE t (x)")]).schemaVersion()
        }
        #expect(error?.message.hasPrefix("'\(folder.path)/\(name)' is a symlink") == true)
        #expect(FileManager.default.contents(atPath: target) == Data(), "nothing was written through the link")
    }

    @Test func looseModesAreTightenedAndSaidOnce() throws {
        let reports = Reports()
        let (storage, data) = storage(reports)
        #expect(mkdir(data, 0o777) == 0 && chmod(data, 0o777) == 0)
        #expect(mkdir(data + "/Auth", 0o777) == 0 && chmod(data + "/Auth", 0o777) == 0)
        #expect(FileManager.default.createFile(atPath: data + "/Auth/notes.txt", contents: Data("x".utf8)))
        chmod(data + "/Auth/notes.txt", 0o666)
        let folder = try storage.files()
        #expect(try folder.read("notes.txt") == Array("x".utf8))
        #expect(mode(data) == 0o700)
        #expect(mode(data + "/Auth") == 0o700)
        #expect(mode(data + "/Auth/notes.txt") == 0o600)
        #expect(
            reports.all == [
                "tightened '\(data)' from 0777 to 0700: only you may reach a module's data",
                "tightened '\(data)/Auth' from 0777 to 0700: only you may reach a module's data",
                "tightened '\(data)/Auth/notes.txt' from 0666 to 0600: only you may read a module's data",
            ])
        _ = try folder.read("notes.txt")
        #expect(reports.all.count == 3, "said once")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a folder to another user"))
    func aModuleFolderOrFileOwnedBySomeoneElseIsRefused() throws {
        let (storage, data) = storage()
        #expect(mkdir(data, 0o700) == 0)
        #expect(mkdir(data + "/Auth", 0o700) == 0)
        #expect(chown(data + "/Auth", 65534, 65534) == 0)
        let error = #expect(throws: StorageError.self) { try storage.files() }
        #expect(error?.message.hasPrefix("'\(data)/Auth' belongs to ") == true)
        #expect(
            error?.message.hasSuffix(
                "(uid 65534) (mode 0700), not to you (root (uid 0)), so it is refused; remove it, or fix it with 'chown root \(data)/Auth'")
                == true)

        let (other, otherData) = self.storage()
        let folder = try other.files()
        #expect(FileManager.default.createFile(atPath: folder.path + "/auth.sqlite", contents: Data()))
        #expect(chown(folder.path + "/auth.sqlite", 65534, 65534) == 0)
        let refused = #expect(throws: StorageError.self) { try other.database(named: "auth", migrations: []).schemaVersion() }
        #expect(refused?.message.hasPrefix("'\(otherData)/Auth/auth.sqlite' belongs to ") == true)
    }

    @Test func aSharedFolderIsNeverTheDataFolderAndIsLeftAlone() throws {
        let shared = NSTemporaryDirectory() + "shared-" + UUID().uuidString
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
        let error = #expect(throws: StorageError.self) { try ModuleStorage(dataFolder: shared, module: "Auth").files() }
        #expect(
            error?.message
                == "the data folder '\(shared)' is a shared folder (mode 01777); give modhost a folder of its own with --data-dir or MODHOST_DATA_DIR"
        )
        #expect(mode(shared) == 0o1777)
    }

    @Test func writesReplaceAtomicallyAndLeaveNoTemporaryFile() throws {
        let (storage, _) = storage()
        let folder = try storage.files()
        try folder.write("state.json", Array("one".utf8))
        try folder.write("state.json", Array("two".utf8))
        #expect(try folder.read("state.json") == Array("two".utf8))
        #expect(folder.names() == ["state.json"])
        #expect(mode(folder.path + "/state.json") == 0o600)
    }
}
