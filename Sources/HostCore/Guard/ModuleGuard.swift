import CHostGuard
import Foundation
@_spi(Host) import ModuleKit
import Synchronization

/// The host's record of whose code it is running.
///
/// Before each call into a module it tells the C guard the module, the phase and the lines to
/// print, and writes a marker file (`<data>/.modhost/running-<pid>`); after the call the marker
/// reads `idle`. A fatal signal, an `exit()` or a hang inside the call is then named as it
/// happens and left in the marker, which the next start turns into a ``CrashRecord``.
final class ModuleGuard: Sendable {
    /// Default time limit of the entry point, `register`, `start` and `stop`.
    static let defaultTimeout: Duration = .seconds(10)

    private struct Marker: Sendable {
        let descriptor: Int32
        let path: String
    }

    private let marker: Mutex<Marker?> = Mutex(nil)
    /// How many guarded calls are under way: module code that reaches the host, which calls
    /// into a module again, stays attributed to the outermost module.
    private let depth = Mutex(0)
    /// Whether crashes are written down for the next start (not in bisect tries or probes).
    let recordsCrashes: Bool
    private let dataFolder: String

    init(dataFolder: String, recordsCrashes: Bool) {
        self.dataFolder = dataFolder
        self.recordsCrashes = recordsCrashes
    }

    /// Runs `body`, module code of `module`, under the guard.
    func run<T>(
        _ module: String, _ phase: GuardPhase, library: String?, identity: FileIdentity?, timeout: Duration? = nil,
        _ body: () throws -> T
    ) rethrows -> T {
        let isOutermost = depth.withLock { depth in
            depth += 1
            return depth == 1
        }
        defer { depth.withLock { $0 -= 1 } }
        guard isOutermost else { return try body() }
        let retry = "; it is skipped from the next start; 'modhost --retry \(module)' tries it again"
        let suffix = recordsCrashes ? retry : ""
        let seconds = timeout.map { Self.seconds($0) } ?? 0
        let record = CrashRecord.markerPrefix(module: module, phase: phase, library: library, identity: identity, timeout: seconds)
        ensureMarker()
        modhost_guard_enter(
            "module '\(module)' crashed the host in \(phase.rawValue)", suffix, "module '\(module)' called exit(%) in \(phase.rawValue)",
            "module '\(module)' has not returned from \(phase.rawValue) after \(Self.format(seconds)) s", record,
            timeout.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? 0)
        defer { modhost_guard_leave() }
        return try body()
    }

    /// Removes this process's marker: the host ends normally.
    func finish() {
        marker.withLock { marker in
            guard let current = marker else { return }
            modhost_guard_set_marker(-1, nil)
            close(current.descriptor)
            unlink(current.path)
            marker = nil
        }
    }

    private func ensureMarker() {
        guard recordsCrashes else { return }
        marker.withLock { marker in
            guard marker == nil else { return }
            let folder = CrashRecords.folder(in: dataFolder)
            guard (try? CrashRecords.createFolder(folder)) != nil else { return }
            let path = folder + "/running-\(getpid())"
            let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return }
            marker = Marker(descriptor: descriptor, path: path)
            modhost_guard_set_marker(descriptor, path)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
