import Foundation
@_spi(Host) import ModuleKit

/// The crashes the host remembers, in `<data>/.modhost/crashes`: one ``CrashRecord`` per module.
///
/// At each start the markers left by processes that ended inside a module call are turned into
/// records. A module with a record that skips it (see ``CrashRecord/skips``) is skipped until
/// its library changes (size, modification time or inode: the author shipped a fix) or
/// `--retry` names it.
///
/// A process that vanished inside a call (SIGKILL, `_exit`) leaves no word of why: a `kill -9`
/// from outside looks the same. Its record only warns; the same module vanishing in the same
/// phase again, before it has once come through that phase, skips it.
struct CrashRecords {
    static func folder(in dataFolder: String) -> String { dataFolder + "/.modhost" }

    let folder: String
    private(set) var records: [String: CrashRecord] = [:]
    /// Records of processes that vanished, collected by this start.
    private(set) var vanished: [CrashRecord] = []

    /// Reads the records and collects the markers of dead processes; writes nothing when
    /// `collect` is false (a read-only look, as `check` takes). With `readingMarkers` false,
    /// only the records file is read (to forget some of them).
    init(dataFolder: String, collect: Bool, readingMarkers: Bool = true) {
        folder = Self.folder(in: dataFolder)
        // Plain system calls: this runs at every start, usually to find nothing.
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        for line in Self.read(folder + "/crashes").split(separator: "\n") {
            if let record = CrashRecord(line: line) { records[record.module] = record }
        }
        var changed = false
        while readingMarkers, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("running-"), let pid = Int32(name.dropFirst("running-".count)), pid != getpid(), !Self.isAlive(pid)
            else { continue }
            let path = folder + "/" + name
            if let found = CrashRecord(line: Substring(Self.read(path).trimmingCharacters(in: .newlines))) {
                let record = found.afterVanishing(previous: records[found.module])
                if !record.skips { vanished.append(record) }
                records[record.module] = record
                changed = true
            }
            if collect { unlink(path) }
        }
        if changed && collect { save() }
    }

    /// A small file's text, read without following a symlink; empty when it cannot be read.
    private static func read(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The record that still skips `module` loaded from a file of `identity`.
    func record(for module: String, identity: FileIdentity) -> CrashRecord? {
        guard let record = records[module], record.skips else { return nil }
        return record.identity == identity ? record : nil
    }

    /// The records that only warn (a process vanished once in that module and phase).
    var warnings: [CrashRecord] { records.values.filter { !$0.skips } }

    /// Forgets `module`'s record (a retry, or its library changed).
    mutating func forget(_ module: String) {
        guard records.removeValue(forKey: module) != nil else { return }
        save()
    }

    mutating func forgetAll() {
        guard !records.isEmpty else { return }
        records = [:]
        save()
    }

    private func save() {
        let text = records.values.sorted { $0.module < $1.module }.map { $0.line + "\n" }.joined()
        guard (try? Self.createFolder(folder)) != nil else { return }
        let temporary = folder + "/crashes.\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        if written == bytes.count { rename(temporary, folder + "/crashes") } else { unlink(temporary) }
    }

    /// Creates `folder` and the folders above it (mode 0700), with mkdir(2): FileManager's
    /// first use costs more than a whole start-up's worth of guarded calls. The folder itself
    /// must then be a real folder of the running user's (no symlink planted in its place).
    static func createFolder(_ folder: String) throws {
        var path = ""
        for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
            path.append("/")
            path.append(contentsOf: component)
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw CocoaError(.fileWriteNoPermission) }
        }
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
            throw CocoaError(.fileWriteNoPermission)
        }
        if status.st_mode & 0o077 != 0 { chmod(folder, 0o700) }
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
