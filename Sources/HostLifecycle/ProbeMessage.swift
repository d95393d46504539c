import Glibc
import HostLoading
@_spi(Host) import ModuleKit

/// What `check`'s child process (`modhost __probe NAME…`) tells its parent about each library
/// it loads, one line each on its standard output: written and read here only, so the two
/// sides cannot drift apart.
package enum ProbeMessage: Equatable {
    /// It is about to load `module`: a crash, exit or hang from now on is that module's.
    case begin(module: String)
    /// `module` loaded, and its strings files (`files` of them, read in `nanoseconds`) parse.
    case loaded(module: String, files: Int, nanoseconds: Int)
    /// `module` now runs `phase` (its configuration, `register`, `checkResources`): a crash,
    /// exit or hang from now on happened there.
    case phase(module: String, phase: GuardPhase)
    /// One problem of `module` (in the child's language); ``failed(module:)`` follows its last.
    case problem(module: String, reason: String)
    /// `module` is done, with the problems told before.
    case failed(module: String)
    /// After every module: `module` declares a route under another identity than its provider.
    case conflict(module: String, reason: String)
    /// The module being loaded ended the process (written by the C guard, see
    /// ``HostRuntime/reportEnds()``): a crash, an exit or a hang.
    case ended(GuardOutcome)

    /// What the guard writes before an outcome.
    static let endedPrefix = "ended "

    /// The line, newline included; a reason is one line (control characters escaped).
    var line: String {
        switch self {
        case .begin(let module): "begin \(module)\n"
        case .loaded(let module, let files, let nanoseconds): "ok \(module) \(files) \(nanoseconds)\n"
        case .phase(let module, let phase): "phase \(module) \(phase.rawValue)\n"
        case .problem(let module, let reason): "problem \(module) \(Escaped.escapingControlCharacters(reason))\n"
        case .failed(let module): "failed \(module)\n"
        case .conflict(let module, let reason): "conflict \(module) \(Escaped.escapingControlCharacters(reason))\n"
        case .ended(let outcome): "\(Self.endedPrefix)\(outcome.text)\n"
        }
    }

    /// The message of one line (without its newline), or `nil` for anything else the child
    /// might print there.
    package init?(line: String) {
        if line.hasPrefix(Self.endedPrefix) {
            // An outcome that is none of the guard's words is no message: the wait status
            // says how the probe ended.
            guard let outcome = GuardOutcome(String(line.dropFirst(Self.endedPrefix.count))) else { return nil }
            self = .ended(outcome)
            return
        }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[1].isEmpty else { return nil }
        let rest = parts.count > 2 ? parts[2] : ""
        switch parts[0] {
        case "begin":
            self = .begin(module: parts[1])
        case "ok":
            let counts = rest.split(separator: " ").compactMap { Int($0) }
            self = .loaded(module: parts[1], files: counts.count == 2 ? counts[0] : 0, nanoseconds: counts.count == 2 ? counts[1] : 0)
        case "phase":
            guard let phase = GuardPhase(rawValue: rest) else { return nil }
            self = .phase(module: parts[1], phase: phase)
        case "problem":
            self = .problem(module: parts[1], reason: rest)
        case "failed":
            self = .failed(module: parts[1])
        case "conflict":
            self = .conflict(module: parts[1], reason: rest)
        default:
            return nil
        }
    }
}

extension HostRuntime {
    /// In the probe's child: the guard reports a module call that ends the process on standard
    /// output, the probe's pipe, as a ``ProbeMessage/ended(_:)`` line.
    package static func reportEnds() {
        ModuleGuard.reportEnds(to: STDOUT_FILENO, prefix: ProbeMessage.endedPrefix)
    }
}
