import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit

/// A module that crashed, exited or hung the host, as the next start learns it.
package struct CrashRecord: Sendable, Equatable {
    let module: String
    let phase: String
    let date: Date
    let library: String
    package let identity: FileIdentity?
    /// Seconds allowed for the call, for a hang.
    let timeout: Double
    /// How the call ended (`.vanished`: the marker still said it was running).
    let outcome: GuardOutcome

    /// Whether the module is skipped: every observed crash, exit or hang, and a vanishing
    /// only the second time in a row.
    var skips: Bool { outcome != .vanished }

    /// This record, collected from a marker, given the record the module had before: a second
    /// vanishing in the same phase skips it.
    func afterVanishing(previous: CrashRecord?) -> CrashRecord {
        guard outcome == .vanished, let previous, previous.phase == phase,
            previous.outcome == .vanished || previous.outcome == .vanishedTwice
        else { return self }
        return CrashRecord(
            module: module, phase: phase, date: date, library: library, identity: identity, timeout: timeout, outcome: .vanishedTwice)
    }

    /// The record of a module in a process of its own whose faults used up its restarts: it is
    /// skipped from the next start until `--retry`.
    package static func processFailures(_ count: Int, module: String, library: String, identity: FileIdentity?) -> CrashRecord {
        CrashRecord(
            module: module, phase: GuardPhase.background.rawValue, date: Date(), library: library, identity: identity, timeout: 0,
            outcome: .processFailures(count))
    }

    init(module: String, phase: String, date: Date, library: String, identity: FileIdentity?, timeout: Double, outcome: GuardOutcome) {
        self.module = module
        self.phase = phase
        self.date = date
        self.library = library
        self.identity = identity
        self.timeout = timeout
        self.outcome = outcome
    }

    /// What the next start says of a process that vanished once in this module's call.
    package var warningText: HostText {
        HostText(
            "crash.vanished.warning",
            "the last run ended without a word while module '%@' ran %@ (on %@: killed from outside, or _exit); if it happens again there, %@ is skipped",
            [.plain(module), .plain(phase), .plain(Self.localTime(date)), .plain(module)])
    }

    /// The reason shown for the module while it is skipped, in English.
    var reason: String { reasonText.description }

    /// The reason as a host message, for the person's language.
    package var reasonText: HostText {
        let (when, phase) = (HostText.Argument.plain(Self.localTime(date)), HostText.Argument.plain("\(self.phase)"))
        let what: HostText
        switch outcome {
        case .signal(let name):
            what = HostText("crash.signal", "crashed the host on %@ in %@ (%@)", [when, phase, .plain(name)])
        case .exit(let status):
            what = HostText("crash.exit", "called exit(%@) in %@ on %@", [.plain(status), phase, when])
        case .hang:
            what = HostText("crash.hang", "did not return from %@ within %@ s on %@", [phase, .plain(ModuleGuard.format(timeout)), when])
        case .vanishedTwice:
            what = HostText(
                "crash.vanished.twice", "ended the host without a word in %@ twice in a row, last on %@ (_exit or SIGKILL)", [phase, when])
        case .vanished:
            what = HostText("crash.vanished", "ended the host without a word in %@ on %@ (_exit or SIGKILL)", [phase, when])
        case .processFailures(let count):
            what = HostText("crash.process", "its own process failed %@ times within a minute on %@", [.plain("\(count)"), when])
        }
        return HostText("crash.retry", "%@; 'modhost --retry %@' tries it again", [.text(what), .plain(module)])
    }

    /// The marker's fields before the outcome, tab-separated (the C guard appends the outcome).
    static func markerPrefix(
        module: String, phase: GuardPhase, library: String?, identity: FileIdentity?, timeout: Double, date: Date? = nil
    ) -> String {
        let (head, tail) = markerParts(module: module, phase: phase, library: library, identity: identity, timeout: timeout)
        let seconds = date.map { Int($0.timeIntervalSince1970) } ?? time(nil)
        return "\(head)\(seconds)\(tail)"
    }

    /// The marker's fields before the time and after it: the C guard writes the time itself
    /// for a crash it finds by address (``GuardPhase/background``).
    static func markerParts(
        module: String, phase: GuardPhase, library: String?, identity: FileIdentity?, timeout: Double
    ) -> (head: String, tail: String) {
        let identityText = identity.map { "\($0.size)\t\($0.modified)\t\($0.modifiedNanoseconds)\t\($0.inode)" } ?? "-\t-\t-\t-"
        // Plain Swift, no Foundation string methods: this runs before every module call.
        let raw = library ?? "-"
        let path =
            raw.utf8.contains(where: { $0 == 9 || $0 == 10 }) ? String(raw.map { $0 == "\t" || $0 == "\n" ? " " : $0 }) : raw
        return ("\(module)\t\(phase.rawValue)\t", "\t\(path)\t\(identityText)\t\(timeout)\t")
    }

    var line: String {
        Self.markerPrefix(
            module: module, phase: GuardPhase(rawValue: phase) ?? .load, library: library, identity: identity, timeout: timeout,
            date: date) + outcome.text
    }

    /// Parses one line of a marker or of the records file; `nil` for anything else, an outcome
    /// that is none of the guard's words included.
    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 10, ModuleDescriptor.isIdentifier(fields[0]), GuardPhase(rawValue: fields[1]) != nil,
            let seconds = Int(fields[2]), let timeout = Double(fields[8]), timeout.isFinite, (0...86_400 * 365).contains(timeout)
        else { return nil }
        module = fields[0]
        phase = fields[1]
        date = Date(timeIntervalSince1970: TimeInterval(seconds))
        library = fields[3]
        if let size = Int64(fields[4]), let modified = Int64(fields[5]), let nanoseconds = Int64(fields[6]), let inode = UInt64(fields[7]) {
            identity = FileIdentity(size: size, modified: modified, modifiedNanoseconds: nanoseconds, inode: inode)
        } else {
            identity = nil
        }
        self.timeout = timeout
        guard let outcome = GuardOutcome(fields[9]) else { return nil }
        self.outcome = outcome
    }

    /// `2026-11-29 14:03` in the local time zone.
    private static func localTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }
}
