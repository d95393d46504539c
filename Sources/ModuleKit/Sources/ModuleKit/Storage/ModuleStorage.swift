import Foundation

/// A module's own data folder, `<data folder>/<module name>/`: its databases and files.
///
/// The API takes names, not paths, so a module cannot open another module's data. The folder
/// is 0700 and every file the storage creates is 0600.
public final class ModuleStorage: Sendable {
    /// The module's folder (created on first use).
    public let folder: String

    public init(dataFolder: String, module: String) {
        folder = (dataFolder as NSString).appendingPathComponent(module)
    }

    /// Opens (creating if needed) the database `name` in the module's folder and migrates it.
    ///
    /// - Parameters:
    ///   - name: A plain file name (letters, digits, `-`, `_`); `.sqlite` is appended.
    ///   - migrations: The schema steps, by version.
    /// - Throws: ``StorageError``.
    public func database(named name: String = "data", migrations: [Migration]) throws(StorageError) -> Database {
        let path = try file(named: name + ".sqlite")
        return try Database(path: path, migrations: migrations)
    }

    /// The path of file `name` in the module's folder, creating the folder (0700) and the file
    /// (0600, empty) if they do not exist.
    ///
    /// - Throws: ``StorageError`` for a name with a path separator, or when the folder or file
    ///   cannot be created.
    public func file(named name: String) throws(StorageError) -> String {
        guard Self.isPlainName(name) else {
            throw StorageError(.open, "'\(name)' is not a plain file name; a module stores files only in its own folder")
        }
        try Self.createFolder(folder)
        let path = (folder as NSString).appendingPathComponent(name)
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.open, "cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        return path
    }

    /// The path of folder `name` in the module's folder, created (0700) if needed: for files
    /// a module manages itself (a cache).
    ///
    /// - Throws: ``StorageError`` for a name with a path separator, or when it cannot be made.
    public func folderPath(named name: String) throws(StorageError) -> String {
        guard Self.isPlainName(name) else {
            throw StorageError(.open, "'\(name)' is not a plain folder name; a module stores files only in its own folder")
        }
        let path = (folder as NSString).appendingPathComponent(name)
        try Self.createFolder(folder)
        try Self.createFolder(path)
        return path
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// Creates `path` and its missing parents with mode 0700.
    @_spi(Host)
    public static func createFolder(_ path: String) throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StorageError(.open, "'\(path)' exists and is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.open, "cannot create folder '\(path)': \(error.localizedDescription)")
        }
    }
}
