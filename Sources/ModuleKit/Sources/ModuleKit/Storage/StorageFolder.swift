import Dispatch
import FoundationEssentials
import Glibc

/// A folder of a module's data, held open by its descriptor.
///
/// Every file in it is opened relative to that descriptor and never through a symlink
/// (`openat` with `O_NOFOLLOW`), new files are created with `O_EXCL`, and a file is replaced
/// by writing a temporary file and renaming it over the old one. So nothing planted in the
/// folder can send a read or a write elsewhere. The folder and its files must belong to the
/// running user: a looser mode is tightened (folders 0700, files 0600) and reported once, a
/// file or folder owned by someone else is refused.
///
/// ```swift
/// let folder = try context.storage.files()
/// try folder.append("log.txt", Array("started\n".utf8))
/// let saved = try folder.read("state.json")          // nil when there is none
/// try folder.write("state.json", Array(json.utf8))  // atomic replace
/// ```
public final class StorageFolder: Sendable {
    /// The folder's path, for messages.
    public let path: String
    let descriptor: Int32
    private let report: @Sendable (String) -> Void

    init(path: String, descriptor: Int32, report: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.descriptor = descriptor
        self.report = report
    }

    deinit { close(descriptor) }

    /// The file `name` whole, or `nil` when it does not exist.
    ///
    /// - Throws: ``StorageError`` when it is a symlink, not a regular file, someone else's,
    ///   larger than `limit` bytes, or cannot be read.
    public func read(_ name: String, limit: Int = 64 << 20) throws(StorageError) -> [UInt8]? {
        let fd = try open(name, O_RDONLY, create: false)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        // No larger than the limit needs (one byte over it tells a file too large): a small
        // file read at every start (a module's remembered choice) costs no 64 KiB to zero.
        var buffer = [UInt8](repeating: 0, count: min(max(limit, 0), 65_535) + 1)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read", name) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            guard bytes.count <= limit else {
                throw StorageError(.open, "'\(path)/\(name)' is larger than the \(limit) bytes accepted")
            }
        }
    }

    /// Replaces (or creates) the file `name` with `bytes` atomically: a reader, or a restart
    /// after `kill -9`, sees the old content or the new, never a mix.
    public func write(_ name: String, _ bytes: [UInt8]) throws(StorageError) {
        try Self.checkName(name)
        let temporary = ".\(name).partial-\(UInt64.random(in: 0...UInt64.max))"
        let fd = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create", temporary) }
        do throws(StorageError) {
            try Self.writeAll(bytes, to: fd, path: "\(path)/\(name)")
            guard fsync(fd) == 0 else { throw failure("cannot write", name) }
            // A name that is now a symlink or someone else's file is refused, not replaced.
            try verify(name)
        } catch {
            close(fd)
            unlinkat(descriptor, temporary, 0)
            throw error
        }
        close(fd)
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let error = failure("cannot replace", name)
            unlinkat(descriptor, temporary, 0)
            throw error
        }
        fsync(descriptor)
    }

    /// Appends `bytes` to the file `name` (created 0600 if needed) and waits until they are on
    /// disk (no bytes: the file is made and checked, and there is nothing to wait for).
    public func append(_ name: String, _ bytes: [UInt8]) throws(StorageError) {
        let fd = try open(name, O_WRONLY | O_APPEND, create: true)
        defer { close(fd) }
        guard !bytes.isEmpty else { return }
        try Self.writeAll(bytes, to: fd, path: "\(path)/\(name)")
        guard fsync(fd) == 0 else { throw failure("cannot write", name) }
    }

    /// Removes the file `name`; nothing happens when it does not exist.
    public func remove(_ name: String) throws(StorageError) {
        try Self.checkName(name)
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw failure("cannot remove", name) }
    }

    /// Size and modification time of the regular file `name`, or `nil` when there is none.
    public func info(_ name: String) throws(StorageError) -> FileInfo? {
        guard let status = try status(name) else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refusal(name, status) }
        let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        return FileInfo(size: Int(status.st_size), modifiedSince1970: modified)
    }

    /// Checks the file `name`, when there is one, as a read would: not a symlink, a regular
    /// file, the running user's (its mode tightened). Makes nothing.
    ///
    /// - Throws: ``StorageError`` naming what is wrong with it.
    public func verify(_ name: String) throws(StorageError) {
        try open(name, O_RDONLY, create: false).closing()
    }

    /// The names of the regular files in the folder.
    public func names() -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else { return [] }
        defer { closedir(directory) }
        rewinddir(directory)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if entry.pointee.d_type == UInt8(DT_REG) { names.append(name) }
        }
        return names
    }

    /// The folder `name` inside this one, created 0700 if needed.
    public func folder(named name: String) throws(StorageError) -> StorageFolder {
        try Self.checkName(name)
        return try Self.open(folder: name, in: descriptor, parentPath: path, report: report)
    }

    /// The file `name` opened with `flags` (and created 0600 when `create`), checked as every
    /// file here is; `-1` when it does not exist and `create` is false. The caller closes it.
    @_spi(Host)
    public func openDescriptor(_ name: String, flags: Int32, create: Bool) throws(StorageError) -> Int32 {
        try open(name, flags, create: create)
    }

    // MARK: - Checks

    /// Opens `name` without following a symlink; `-1` when it does not exist and `create` is
    /// false. Checks what was opened: a regular file, the running user's, mode tightened.
    private func open(_ name: String, _ flags: Int32, create: Bool) throws(StorageError) -> Int32 {
        try Self.checkName(name)
        let fd = openat(descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
        guard fd >= 0 else {
            if errno == ENOENT && !create { return -1 }
            if errno == ELOOP || errno == EMLINK {
                throw StorageError(
                    .open,
                    "'\(path)/\(name)' is a symlink; a module's data is never reached through one, so it is refused — remove it")
            }
            throw failure("cannot open", name)
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == TrustedPath.runningUser else {
            close(fd)
            throw refusal(name, status)
        }
        if status.st_mode & 0o077 != 0 {
            fchmod(fd, 0o600)
            report("tightened '\(path)/\(name)' from \(Self.octal(status.st_mode)) to 0600: only you may read a module's data")
        }
        return fd
    }

    private func status(_ name: String) throws(StorageError) -> stat? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot examine", name)
        }
        return status
    }

    /// Refuses `name`, whose status is `status`, saying what is wrong with it.
    private func refusal(_ name: String, _ status: stat) -> StorageError {
        let full = "\(path)/\(name)"
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            return StorageError(.open, "'\(full)' is a symlink; a module's data is never reached through one, so it is refused — remove it")
        case S_IFREG where status.st_uid != TrustedPath.runningUser:
            return Self.foreign(full, status)
        case S_IFREG:
            return StorageError(.open, "'\(full)' cannot be used")
        default:
            return StorageError(.open, "'\(full)' is not a regular file; remove it")
        }
    }

    private func failure(_ what: String, _ name: String) -> StorageError {
        StorageError(.open, "\(what) '\(path)/\(name)': \(String(cString: strerror(errno)))")
    }

    static func foreign(_ path: String, _ status: stat) -> StorageError {
        StorageError(
            .open,
            "'\(path)' belongs to \(userName(status.st_uid)) (mode \(octal(status.st_mode))), not to you (\(userName(geteuid()))), "
                + "so it is refused; remove it, or fix it with 'chown \(userName(geteuid(), bare: true)) \(path)'")
    }

    static func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }

    static func userName(_ uid: uid_t, bare: Bool = false) -> String {
        guard let name = TrustedPath.accountName(uid) else { return bare ? "\(uid)" : "uid \(uid)" }
        return bare ? name : "\(name) (uid \(uid))"
    }

    static func checkName(_ name: String) throws(StorageError) {
        guard ModuleStorage.isPlainName(name) else {
            throw StorageError(.open, "'\(name)' is not a plain file name; a module stores files only in its own folder")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(StorageError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw StorageError(.open, "cannot write '\(path)': \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    // MARK: - Opening folders

    /// Opens (creating 0700 if needed) folder `name` in the folder open at `parent`, refusing
    /// a symlink or someone else's folder and tightening a looser mode.
    static func open(folder name: String, in parent: Int32, parentPath: String, report: @escaping @Sendable (String) -> Void)
        throws(StorageError) -> StorageFolder
    {
        let path = parentPath + "/" + name
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = openat(parent, name, flags)
        // Made only when it is not there: a folder that exists costs one open.
        if fd < 0 && errno == ENOENT {
            if mkdirat(parent, name, 0o700) != 0 && errno != EEXIST {
                throw StorageError(.open, "cannot create folder '\(path)': \(String(cString: strerror(errno)))")
            }
            fd = openat(parent, name, flags)
        }
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                var status = stat()
                let isLink = fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
                throw StorageError(
                    .open,
                    isLink
                        ? "'\(path)' is a symlink; a module's data is never reached through one, so it is refused — remove it"
                        : "'\(path)' is not a folder; remove it")
            }
            throw StorageError(.open, "cannot open folder '\(path)': \(String(cString: strerror(errno)))")
        }
        return try checked(fd, path: path, report: report)
    }

    /// The data folder `path` as it will be used: absolute (a relative one is taken from the
    /// current folder), with every symlink in the part that exists resolved once, each taken
    /// only from a folder no one else can write (see `TrustedPath`). Creates nothing.
    ///
    /// SQLite opens databases with `SQLITE_OPEN_NOFOLLOW`, which refuses a symlink anywhere in
    /// the path: so a data folder below a symlinked parent is used by its resolved path.
    static func resolve(dataFolder path: String) throws(StorageError) -> String {
        var existing = FilePaths.absolute(path, relativeTo: FilePaths.currentFolder)
        var missing: [String] = []
        var status = stat()
        while existing != "/" && lstat(existing, &status) != 0 && errno == ENOENT {
            missing.append(String(existing[existing.index(after: existing.lastIndex(of: "/") ?? existing.startIndex)...]))
            existing = FilePaths.folder(of: existing)
        }
        let resolved: String
        do {
            resolved = try TrustedPath.resolve(existing)
        } catch {
            throw StorageError(.open, "the data folder '\(EscapedPath(path))' cannot be used: \(error)")
        }
        var full = resolved == "/" ? "" : resolved
        for component in missing.reversed() { full += "/" + component }
        return full.isEmpty ? "/" : full
    }

    /// Opens the data folder itself at `path` (created 0700 with its parents if needed). The
    /// path may lead through symlinks the person set up (see ``resolve(dataFolder:)``); what it
    /// leads to must be theirs.
    static func openRoot(_ given: String, report: @escaping @Sendable (String) -> Void) throws(StorageError) -> StorageFolder {
        let path = try resolve(dataFolder: given)
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = Glibc.open(path, flags)
        // Made (with its parents) only when it is not there: a folder that exists costs one open.
        if fd < 0 && errno == ENOENT {
            var partial = ""
            for component in path.split(separator: "/") {
                partial.append("/")
                partial.append(contentsOf: component)
                if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                    throw StorageError(.open, "cannot create folder '\(partial)': \(String(cString: strerror(errno)))")
                }
            }
            fd = Glibc.open(path, flags)
        }
        guard fd >= 0 else { throw StorageError(.open, "cannot open the data folder '\(path)': \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw StorageError(.open, "cannot examine folder '\(path)': \(String(cString: strerror(errno)))")
        }
        // A shared folder such as /tmp is never made private (that would lock everyone else
        // out): it cannot be a data folder at all.
        if status.st_mode & S_ISVTX != 0 {
            close(fd)
            throw StorageError(
                .open,
                "the data folder '\(path)' is a shared folder (mode \(octal(status.st_mode))); give modhost a folder of its own with --data-dir or MODHOST_DATA_DIR"
            )
        }
        return try checked(fd, status, path: path, report: report)
    }

    private static func checked(_ fd: Int32, path: String, report: @escaping @Sendable (String) -> Void) throws(StorageError)
        -> StorageFolder
    {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw StorageError(.open, "cannot examine folder '\(path)': \(String(cString: strerror(errno)))")
        }
        return try checked(fd, status, path: path, report: report)
    }

    /// Keeps `fd`, examined as `status`, when it is the running user's (tightened to 0700).
    private static func checked(_ fd: Int32, _ status: stat, path: String, report: @escaping @Sendable (String) -> Void)
        throws(StorageError) -> StorageFolder
    {
        guard status.st_uid == TrustedPath.runningUser else {
            close(fd)
            throw foreign(path, status)
        }
        if status.st_mode & 0o077 != 0 {
            fchmod(fd, 0o700)
            report("tightened '\(path)' from \(octal(status.st_mode)) to 0700: only you may reach a module's data")
        }
        return StorageFolder(path: path, descriptor: fd, report: report)
    }
}

extension Int32 {
    /// Closes this descriptor (when it is one).
    fileprivate func closing() {
        if self >= 0 { close(self) }
    }
}

/// What ``StorageFolder/info(_:)`` tells of a file.
public struct FileInfo: Sendable, Equatable {
    /// In bytes.
    public let size: Int
    /// The last modification, in seconds since 1970-01-01 UTC (`Date(timeIntervalSince1970:)`).
    public let modifiedSince1970: Double

    public init(size: Int, modifiedSince1970: Double) {
        self.size = size
        self.modifiedSince1970 = modifiedSince1970
    }
}
