import Dispatch
import FoundationEssentials
import Synchronization

/// A module's own data folder, `<data folder>/<module name>/`: its databases and files.
///
/// The API takes names, not paths: files are reached through ``StorageFolder``, relative to
/// the folder's descriptor and never through a symlink; databases are opened only after their
/// files (and SQLite's `-wal`, `-shm` and `-journal` beside them) are checked. The folder is
/// 0700 and every file 0600, and both must belong to the running user (a looser mode is
/// tightened and reported through `report`; someone else's file is refused).
///
/// This keeps modules apart through the storage API. It cannot stop a module's own code
/// from opening another module's files directly: all modules run in one process, as one user.
public final class ModuleStorage: Sendable {
    /// The module's folder (created on first use).
    public let folder: String
    private let dataFolder: String
    private let module: String
    private let report: @Sendable (String) -> Void
    private let opened = Mutex<StorageFolder?>(nil)

    /// - Parameter report: Told, once, about each folder or file whose mode was tightened.
    public init(dataFolder: String, module: String, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.dataFolder = dataFolder
        self.module = module
        self.report = report
        folder = dataFolder.hasSuffix("/") ? dataFolder + module : dataFolder + "/" + module
    }

    /// The module's folder, opened and checked (created 0700 on first use).
    ///
    /// - Throws: ``StorageError`` when it, or the data folder, is a symlink, someone else's,
    ///   or cannot be created.
    public func files() throws(StorageError) -> StorageFolder {
        try opened.withLock { (opened: inout StorageFolder?) throws(StorageError) -> StorageFolder in
            if let opened { return opened }
            guard Self.isPlainName(module) else { throw StorageError(.open, "'\(module)' is not a plain module name") }
            let root = try StorageFolder.openRoot(dataFolder, report: report)
            let folder = try StorageFolder.open(folder: module, in: root.descriptor, parentPath: root.path, report: report)
            opened = folder
            return folder
        }
    }

    /// The folder `name` inside the module's folder, created 0700 if needed: for files a
    /// module manages itself (a cache).
    public func files(in name: String) throws(StorageError) -> StorageFolder {
        try files().folder(named: name)
    }

    /// The database `name` in the module's folder, opened (created if needed) and migrated on
    /// its first read or write: a module can make it in `register` and a run that never uses
    /// it pays nothing. A problem opening it is thrown by that first use, in the module's call.
    ///
    /// - Parameters:
    ///   - name: A plain file name (letters, digits, `-`, `_`); `.sqlite` is appended.
    ///   - migrations: The schema steps, by version.
    /// - Throws: ``StorageError`` for a name that is not plain; opening errors — also when the
    ///   database or a file SQLite keeps beside it is a symlink, not a regular file, or
    ///   someone else's — come with the first use.
    public func database(named name: String = "data", migrations: [Migration]) throws(StorageError) -> Database {
        let file = name + ".sqlite"
        // "", "." and ".." would make ".sqlite", "..sqlite" and "...sqlite": hidden, and no name.
        guard Self.isPlainName(name), !name.hasPrefix(".") else {
            throw StorageError(.open, "'\(Escaped(name))' is not a plain database name; use letters, digits, '-' and '_'")
        }
        return Database(
            path: folder + "/" + file, migrations: migrations,
            prepare: { () throws(StorageError) in
                let folder = try self.files()
                // SQLite opens these by path; they are checked first (and the main file is opened
                // with SQLITE_OPEN_NOFOLLOW). No one else can add one later: the folder is 0700.
                for companion in [file + "-wal", file + "-shm", file + "-journal"] {
                    try folder.verify(companion)
                }
                // Created (0600) and checked here; SQLite gives its -wal and -shm the same mode.
                try folder.append(file, [])
            },
            // A symlink or a FIFO in its place is refused here, as the opening would refuse it.
            isMade: { () throws(StorageError) in try self.files().info(file) != nil })
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// Opens (creating 0700 if needed) the data folder at `path` and checks that it is the
    /// running user's, tightening a looser mode: what the host does at start.
    ///
    /// - Throws: ``StorageError`` naming the folder, its owner and mode, and the fix.
    @_spi(Host)
    public static func checkDataFolder(_ path: String, report: @escaping @Sendable (String) -> Void) throws(StorageError) {
        _ = try StorageFolder.openRoot(path, report: report)
    }

    /// The data folder at `path` as the host uses it: absolute, its symlinks resolved once
    /// (each only from a folder no one else can write). Creates nothing.
    ///
    /// - Throws: ``StorageError`` naming a symlink another user could replace.
    @_spi(Host)
    public static func resolveDataFolder(_ path: String) throws(StorageError) -> String {
        try StorageFolder.resolve(dataFolder: path)
    }
}
