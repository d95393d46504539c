import Foundation
import Synchronization

/// What this process undoes on every way out, a signal from outside included (`SignalTrap`
/// calls ``run()`` before it exits, as the normal end does): the temporary folders a check
/// made, and, when it adopted them, every process below it (``Descendants``).
package enum ProcessCleanup {
    private static let state = Mutex<(folders: Set<String>, endsDescendants: Bool)>(([], false))

    /// From now on, the end of this process ends every process below it.
    package static func endDescendantsOnExit() {
        Descendants.adopt()
        state.withLock { $0.endsDescendants = true }
    }

    /// `folder` is removed on the way out unless ``forget(_:)`` says it was removed already.
    package static func removeOnExit(_ folder: String) {
        state.withLock { _ = $0.folders.insert(folder) }
    }

    /// Removes `folder` now, and no more on the way out.
    package static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
        state.withLock { _ = $0.folders.remove(folder) }
    }

    /// Ends the processes below (first: they may be writing into the folders), then removes
    /// the folders.
    package static func run() {
        let (folders, endsDescendants) = state.withLock { state in
            defer { state.folders = [] }
            return (state.folders, state.endsDescendants)
        }
        if endsDescendants { Descendants.end() }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }
}
