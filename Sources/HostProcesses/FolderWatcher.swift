import Glibc
import Synchronization

/// Watches files by name in their folders with `inotify`, and tells when one of them was put in
/// place: renamed into its folder (as a linker or an installer replaces a library), or written
/// and closed. Each change is told once it has been quiet for ``settle``, so that a file
/// written in several steps is told once, when whole.
///
/// The folder is watched, not the file: a file renamed over another is a new inode, which a
/// watch on the old one would never see.
package final class FolderWatcher: Sendable {
    /// How long a watched file must be left alone before its change is told.
    package static let settle: Duration = .milliseconds(150)

    private let inotify: Int32
    /// Written to end the watching thread.
    private let stopper: (read: Int32, write: Int32)
    /// Watch descriptor → folder, and the names watched in each folder.
    private let watched: Mutex<(folders: [Int32: String], names: [String: Set<String>])> = Mutex(([:], [:]))
    private let stopped = Atomic<Bool>(false)

    /// Starts watching; `changed(folder, name)` is called on the watcher's thread.
    ///
    /// - Returns: `nil` when the system gives no inotify instance or no thread.
    package init?(_ changed: @escaping @Sendable (_ folder: String, _ name: String) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        // Made close-on-exec at once: a child spawned meanwhile by another thread keeps none.
        var pipe: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &pipe) == 0
        else {
            close(inotify)
            return nil
        }
        self.inotify = inotify
        stopper = (pipe[0], pipe[1])
        // Returning nil now runs deinit, which closes the descriptors.
        guard DetachedThread.start(named: "modhost-watch", { [self] in watch(changed) }) else { return nil }
    }

    // The thread holds the watcher until it ends: its descriptors close only after both.
    deinit {
        close(inotify)
        close(stopper.read)
        close(stopper.write)
    }

    /// Watches `name` in `folder` (absolute). Returns false when the folder cannot be watched.
    @discardableResult
    package func watch(_ name: String, in folder: String) -> Bool {
        // Not IN_CREATE: a file made in place is told when it is closed, whole.
        let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR)
        let descriptor = inotify_add_watch(inotify, folder, mask)
        guard descriptor >= 0 else { return false }
        watched.withLock { watched in
            watched.folders[descriptor] = folder
            watched.names[folder, default: []].insert(name)
        }
        return true
    }

    /// Stops watching; no change is told after it returns to the watcher's thread.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        _ = Glibc.write(stopper.write, "x", 1)
    }

    /// The thread's loop: reads events, and tells each watched file once it has settled.
    private func watch(_ changed: @Sendable (String, String) -> Void) {
        var pending: [String: ContinuousClock.Instant] = [:]  // "folder\0name" → last event
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !stopped.load(ordering: .sequentiallyConsistent) {
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopper.read, events: Int16(POLLIN), revents: 0),
            ]
            let wait = pending.isEmpty ? -1 : Int32(Self.milliseconds(Self.settle))
            let ready = poll(&descriptors, 2, wait)
            if ready < 0 && errno != EINTR { return }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0 {
                for (folder, name) in events(&buffer) { pending[folder + "\u{0}" + name] = .now }
            }
            let now = ContinuousClock.now
            for (key, last) in pending where now - last >= Self.settle {
                pending[key] = nil
                let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !stopped.load(ordering: .sequentiallyConsistent) else { continue }
                changed(String(parts[0]), String(parts[1]))
            }
        }
    }

    /// The watched files named by the events waiting on the inotify descriptor.
    private func events(_ buffer: inout [UInt8]) -> [(folder: String, name: String)] {
        var found: [(String, String)] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return found }
            var offset = 0
            // struct inotify_event: wd (4), mask (4), cookie (4), len (4), then len bytes of name.
            while offset + 16 <= count {
                let (descriptor, length) = buffer.withUnsafeBytes { bytes in
                    (
                        bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += 16 + length
                let folder = watched.withLock { watched in
                    watched.folders[descriptor].flatMap { folder in watched.names[folder]?.contains(name) == true ? folder : nil }
                }
                if let folder { found.append((folder, name)) }
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
