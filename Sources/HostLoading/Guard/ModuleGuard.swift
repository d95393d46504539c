import CHostGuard
import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit
import Synchronization

/// The host's record of whose code it is running.
///
/// Before each call into a module it tells the C guard the module, the phase and the lines to
/// print, and writes a marker file (a slot, `<data>/.modhost/marker-N`, see ``MarkerSlots``);
/// after the call the marker reads `idle`. A fatal signal, an `exit()` or a hang inside the call is then named as it
/// happens and left in the marker, which the next start turns into a ``CrashRecord``.
package final class ModuleGuard: Sendable {
    /// Default time limit of the entry point, `register`, `start` and `stop`.
    package static let defaultTimeout: Duration = .seconds(10)

    private struct Marker: Sendable {
        let descriptor: Int32
        let path: String
        /// A slot kept from run to run (see ``MarkerSlots``), else a file of this process's own.
        let isSlot: Bool
    }

    private let marker: Mutex<Marker?> = Mutex(nil)
    /// Module and phase of each record that only warns (a vanishing), and those of them this
    /// process came through (their records are forgotten then).
    private let vanishings = Mutex<(watched: Set<String>, passed: Set<String>)>(([], []))
    /// How many guarded calls are under way: module code that reaches the host, which calls
    /// into a module again, stays attributed to the outermost module.
    private let depth = Atomic(0)
    /// Whether the marker was made (or crashes are not recorded): each call asks, and a call
    /// makes it while it is not.
    private let markerTaken = Atomic(false)
    /// Whether any record only warns: each call asks, and only then looks it up.
    private let watchesVanishings = Atomic(false)
    /// Whether crashes are written down for the next start (not in bisect tries or probes).
    let recordsCrashes: Bool
    private let dataFolder: String

    /// - Parameter victim: what a crash ends, as its line names it: "the host", or "its own
    ///   process" in a module's process of its own (where the host tells how it ended, too).
    package init(dataFolder: String, recordsCrashes: Bool, victim: String = "the host") {
        self.dataFolder = dataFolder
        self.recordsCrashes = recordsCrashes
        if victim != "the host" { modhost_guard_set_victim(victim) }
    }

    /// Runs `body`, module code of `module`, under the guard.
    package func run<T>(
        _ module: String, _ phase: GuardPhase, library: String?, identity: FileIdentity?, timeout: Duration? = nil,
        _ body: () throws -> T
    ) rethrows -> T {
        let isOutermost = depth.wrappingAdd(1, ordering: .relaxed).newValue == 1
        defer { depth.wrappingSubtract(1, ordering: .relaxed) }
        guard isOutermost else { return try body() }
        let seconds = timeout.map { Self.seconds($0) } ?? 0
        let shared = texts(of: module, library: library, identity: identity, seconds: seconds)
        if !markerTaken.load(ordering: .acquiring) { ensureMarker() }
        shared.enter(phase, timeout: timeout)
        defer { Self.sayRestored(modhost_guard_leave(), by: module, in: phase) }
        let result = try body()
        if watchesVanishings.load(ordering: .acquiring) { notePassed(module, phase) }
        return result
    }

    /// Watches the records that only warn (see ``CrashRecords``): coming through their module
    /// and phase clears them, so only a vanishing twice in a row skips a module.
    package func watch(_ warnings: [CrashRecord]) {
        guard !warnings.isEmpty else { return }
        vanishings.withLock { $0.watched = Set(warnings.map { "\($0.module)\t\($0.phase)" }) }
        watchesVanishings.store(true, ordering: .releasing)
    }

    /// What every guarded call of one module shares, made at its first call: a start makes
    /// five calls of each module, and the library's fields and the time limit do not change.
    /// The guard puts its lines together from these only when it says one. Kept as the C
    /// strings the guard copies: a short Swift string (a module's name, "10") is made into one
    /// at each call otherwise.
    private final class CallTexts: Sendable {
        let library: String?
        let identity: FileIdentity?
        let seconds: Double
        /// The module's name, the marker's fields after the time (see
        /// ``CrashRecord/markerParts(module:phase:library:identity:timeout:)``), the suffix of
        /// the guard's lines and the time limit: C strings one after another, and where each
        /// starts.
        private let strings: ContiguousArray<CChar>
        private let starts: (module: Int, tail: Int, suffix: Int, seconds: Int)

        init(module: String, library: String?, identity: FileIdentity?, seconds: Double, recordsCrashes: Bool) {
            self.library = library
            self.identity = identity
            self.seconds = seconds
            let (_, tail) = CrashRecord.markerParts(module: module, phase: .load, library: library, identity: identity, timeout: seconds)
            let suffix = recordsCrashes ? "; it is skipped from the next start; 'modhost --retry \(module)' tries it again" : ""
            var strings = ContiguousArray<CChar>()
            var starts: [Int] = []
            for text in [module, tail, suffix, ModuleGuard.format(seconds)] {
                starts.append(strings.count)
                strings += text.utf8CString
            }
            self.strings = strings
            self.starts = (starts[0], starts[1], starts[2], starts[3])
        }

        func matches(library: String?, identity: FileIdentity?, seconds: Double) -> Bool {
            self.library == library && self.identity == identity && self.seconds == seconds
        }

        /// Tells the C guard a call of this module in `phase` begins.
        func enter(_ phase: GuardPhase, timeout: Duration?) {
            let milliseconds = timeout.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? 0
            // withCString, not the implicit conversion, which allocates for a short string.
            strings.withUnsafeBufferPointer { strings in
                guard let base = strings.baseAddress else { return }
                phase.rawValue.withCString { phase in
                    modhost_guard_enter(
                        base + starts.module, phase, base + starts.seconds, base + starts.suffix, base + starts.tail, milliseconds)
                }
            }
        }
    }

    private let callTexts = Mutex<[String: CallTexts]>([:])

    private func texts(of module: String, library: String?, identity: FileIdentity?, seconds: Double) -> CallTexts {
        if let known = callTexts.withLock({ $0[module] }), known.matches(library: library, identity: identity, seconds: seconds) {
            return known
        }
        let made = CallTexts(module: module, library: library, identity: identity, seconds: seconds, recordsCrashes: recordsCrashes)
        callTexts.withLock { $0[module] = made }
        return made
    }

    /// Forgets the warning of `module` in `phase` the first time a call comes through it, at
    /// once: the process may end without `finish()` (a closed pipe, a signal).
    private func notePassed(_ module: String, _ phase: GuardPhase) {
        let first = vanishings.withLock { state in
            guard !state.watched.isEmpty else { return false }
            let key = "\(module)\t\(phase.rawValue)"
            guard state.watched.contains(key), !state.passed.contains(key) else { return false }
            state.passed.insert(key)
            return true
        }
        guard first, recordsCrashes else { return }
        var records = CrashRecords(dataFolder: dataFolder, collect: false, readingMarkers: false)
        if let record = records.records[module], !record.skips, record.phase == phase.rawValue { records.forget(module) }
    }

    /// Registers a loaded module library's code with the C guard: a crash whose backtrace
    /// passes through it is that module's, in any thread and at any time (see
    /// ``GuardPhase/background``).
    static func registerCode(of module: String, handle: UnsafeMutableRawPointer, library: String, identity: FileIdentity) {
        let (head, tail) = CrashRecord.markerParts(module: module, phase: .background, library: library, identity: identity, timeout: 0)
        _ = modhost_guard_add_module(handle, module, head, tail)
    }

    /// Says which of the standard descriptors (bits of `restored`) the call closed or
    /// replaced, now that the guard has put them back.
    private static func sayRestored(_ restored: Int32, by module: String, in phase: GuardPhase) {
        guard restored != 0 else { return }
        let names = ["standard input", "standard output", "standard error"].enumerated().filter { restored & (1 << $0.offset) != 0 }
            .map(\.element)
        let listed = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        let line =
            "modhost: warning: module '\(module)' closed or replaced \(listed) in \(phase.rawValue); the host put \(names.count < 2 ? "it" : "them") back\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// Has the guard also report how a module call ends (``GuardOutcome``) on `descriptor`, as
    /// one line starting with `prefix`: for `check`'s probe, whose parent reads its pipe.
    package static func reportEnds(to descriptor: Int32, prefix: String) {
        modhost_guard_set_report(descriptor, prefix)
    }

    /// Leaves this process's marker idle, or removes a file of its own: the host ends normally.
    package func finish() {
        marker.withLock { marker in
            guard let current = marker else { return }
            modhost_guard_remove_marker()
            modhost_guard_set_marker(-1, nil, nil)
            close(current.descriptor)
            if current.isSlot { MarkerSlots.released(current.path) }
            marker = nil
        }
    }

    /// Takes this process's marker in the checked `.modhost` folder (see ``CrashRecords``): a
    /// slot, else (a file system without `flock`) a file of its own; without one (a folder that
    /// fails its checks) crashes are still named, not remembered.
    private func ensureMarker() {
        guard recordsCrashes else {
            markerTaken.store(true, ordering: .releasing)
            return
        }
        marker.withLock { marker in
            // Asked again at the next call when it could not be made (a full disk, no descriptor
            // left): one failure does not turn the records off for the run.
            guard marker == nil, let folder = try? CrashRecords.open(dataFolder, create: true) else { return }
            let made: Marker
            if let slot = MarkerSlots.claim(in: folder) {
                made = Marker(descriptor: slot.descriptor, path: folder.path + "/" + slot.name, isSlot: true)
            } else {
                let name = "running-\(getpid())"
                guard let descriptor = try? folder.openDescriptor(name, flags: O_RDWR | O_TRUNC, create: true) else { return }
                made = Marker(descriptor: descriptor, path: folder.path + "/" + name, isSlot: false)
            }
            marker = made
            markerTaken.store(true, ordering: .releasing)
            // A slot is never removed, only left idle: the guard is given no path to unlink.
            modhost_guard_set_marker(made.descriptor, made.isSlot ? nil : made.path, folder.path + "/backtrace-\(getpid()).txt")
        }
    }

    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    package static func format(_ seconds: Double) -> String {
        seconds.isFinite && abs(seconds) < 1e15 && seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension ModuleEntry {
    /// The time limit of each of the module's lifecycle calls: its `startTimeout`, else the
    /// guard's default.
    package var timeout: Duration { startTimeout ?? ModuleGuard.defaultTimeout }
}
