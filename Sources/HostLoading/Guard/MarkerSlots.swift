import CHostGuard
import Glibc
@_spi(Host) import ModuleKit
import Synchronization

/// The guard's marker files, `<data>/.modhost/marker-N`, kept from run to run.
///
/// Each is held by one live process at a time with an exclusive `flock`, which the kernel
/// drops however the process ends (a crash, SIGKILL, `_exit`). A process takes the first slot
/// that no live process holds and that reads idle; one that does not read idle was left by a
/// process that ended inside a module call, and stays for the next start to turn into a record
/// (see ``CrashRecords``). A file of its own per process (`running-<pid>`, which older hosts
/// left and a start still collects) cost a create, a block reservation and an unlink in the
/// data folder at every run; and a process number used again made a dead process look alive.
enum MarkerSlots {
    static let prefix = "marker-"
    /// How many slots a start tries: as many hosts at once on one data folder.
    static let count = 64

    /// The slot's file name, when `name` is one.
    static func isSlot(_ name: String) -> Bool {
        name.hasPrefix(prefix) && Int(name.dropFirst(prefix.count)).map { $0 >= 0 && $0 < count } == true
    }

    /// Takes a free slot in `folder`: its descriptor, held until the process ends or closes
    /// it, and its name. A name that is no file of the user's (a symlink, a folder) is passed
    /// over. `nil` when none is free or the file system has no `flock` (the guard then makes a
    /// file of the process's own).
    static func claim(in folder: StorageFolder) -> (descriptor: Int32, name: String)? {
        for index in 0..<count {
            let name = prefix + String(index)
            if isHeldHere(name, in: folder) { continue }
            guard let descriptor = try? folder.openDescriptor(name, flags: O_RDWR, create: true), descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                if readsIdle(descriptor) {
                    heldHere.withLock { _ = $0.insert(folder.path + "/" + name) }
                    return (descriptor, name)
                }
            } else if errno != EWOULDBLOCK {
                close(descriptor)
                return nil
            }
            close(descriptor)
        }
        return nil
    }

    /// A slot an ended process left, held (its lock taken, so that no process starts using it)
    /// until ``close()``.
    struct Ended {
        let name: String
        let text: String
        private let descriptor: Int32

        fileprivate init(name: String, text: String, descriptor: Int32) {
            self.name = name
            self.text = text
            self.descriptor = descriptor
        }

        /// Empties it for the next process: what it said is kept elsewhere now.
        func empty() { _ = ftruncate(descriptor, 0) }

        func close() { _ = Glibc.close(descriptor) }
    }

    /// The slot `name` of `folder` as an ended process left it; `nil` when a live process holds
    /// it or it cannot be opened. A look that `readOnly` (`check`) opens it for reading, with a
    /// shared lock: it works on a folder it may not write.
    static func ended(_ name: String, in folder: StorageFolder, readOnly: Bool) -> Ended? {
        guard !isHeldHere(name, in: folder),
            let descriptor = try? folder.openDescriptor(name, flags: readOnly ? O_RDONLY : O_RDWR, create: false), descriptor >= 0
        else { return nil }
        guard flock(descriptor, (readOnly ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0, let text = read(descriptor) else {
            close(descriptor)
            return nil
        }
        return Ended(name: name, text: text, descriptor: descriptor)
    }

    /// The slots this process took (by path), never opened again here: where `flock` is made
    /// of record locks (NFS), a second open and close of the file in the process would drop
    /// its lock, and its own lock would not keep it out.
    private static let heldHere = Mutex<Set<String>>([])

    /// The slot at `path` was closed: this process no longer holds it.
    static func released(_ path: String) {
        _ = heldHere.withLock { $0.remove(path) }
    }

    private static func isHeldHere(_ name: String, in folder: StorageFolder) -> Bool {
        heldHere.withLock { $0.contains(folder.path + "/" + name) }
    }

    /// Whether the open slot holds nothing, or `idle`.
    static func readsIdle(_ descriptor: Int32) -> Bool {
        read(descriptor).map(isIdle) ?? false
    }

    static func isIdle(_ text: String) -> Bool {
        text.isEmpty || text == MODHOST_MARKER_IDLE
    }

    /// The slot's text, trimmed of the ASCII spaces and line breaks that pad it to 1 088 bytes
    /// (a longer one reads cut, which no record is). Trimmed as bytes: asking Unicode whether
    /// each of a thousand spaces is white space took longer than the read, at every start.
    private static func read(_ descriptor: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        let read = bytes[..<count]
        func isPadding(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        guard let first = read.firstIndex(where: { !isPadding($0) }), let last = read.lastIndex(where: { !isPadding($0) }) else {
            return ""
        }
        return String(decoding: read[first...last], as: UTF8.self)
    }
}
