import Glibc
import Synchronization

/// What this process undoes on every way out, a signal from outside included (`SignalTrap`
/// calls ``run()`` before it exits, as the normal end does): the temporary folders a check
/// made, and, when it adopted them, every process below it (``Descendants``).
package enum ProcessCleanup {
    private static let state = Mutex<(folders: Set<String>, endsDescendants: Bool, ending: Bool)>(([], false, false))

    /// Whether the way out has begun: nothing new is started or made from then on (a probe
    /// started after the cleanup would be nobody's).
    package static var isEnding: Bool { state.withLock { $0.ending } }

    /// From now on, the end of this process ends every process below it.
    package static func endDescendantsOnExit() {
        Descendants.adopt()
        state.withLock { $0.endsDescendants = true }
    }

    /// `folder` is removed on the way out (unless ``remove(_:)`` removed it first); `false`
    /// once the way out has begun, when the caller must not use it.
    package static func removeOnExit(_ folder: String) -> Bool {
        state.withLock { state in
            guard !state.ending else { return false }
            state.folders.insert(folder)
            return true
        }
    }

    /// Removes `folder` now, and no more on the way out.
    package static func remove(_ folder: String) {
        removeTree(folder)
        state.withLock { _ = $0.folders.remove(folder) }
    }

    /// Ends the processes below (first: they may be writing into the folders), then removes
    /// the folders.
    package static func run() {
        let (folders, endsDescendants) = state.withLock { state in
            state.ending = true
            defer { state.folders = [] }
            return (state.folders, state.endsDescendants)
        }
        if endsDescendants { Descendants.end() }
        // Most are empty by now: one rmdir, where a removal of the tree lists it first.
        for folder in folders where rmdir(folder) != 0 { removeTree(folder) }
    }

    /// Removes `folder` and all it holds from descriptors (``FolderTree``: a link inside is
    /// removed, never followed).
    private static func removeTree(_ folder: String) {
        let bytes = folder.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else {
            FolderTree.remove(folder, inFolderAt: ".")
            return
        }
        let name = String(Substring(bytes[bytes.index(after: slash)...]))
        guard !name.isEmpty else { return }
        FolderTree.remove(name, inFolderAt: slash == bytes.startIndex ? "/" : String(Substring(bytes[..<slash])))
    }
}
