import CHostGuard
@_spi(Host) import ModuleKit

/// How a guarded module call ended, as the C guard writes it into the crash marker and into a
/// probe's report (see `modhost_guard_set_report`). Its words are defined once, for both
/// sides, in `guard_outcome.h`.
package enum GuardOutcome: Sendable, Equatable {
    /// A fatal signal, by name (`SIGSEGV`).
    case signal(String)
    /// The module called `exit` with this status.
    case exit(String)
    /// The call overran its time limit.
    case hang
    /// The marker still said the call was running: the process vanished in it.
    case vanished
    /// The same module and phase vanished twice in a row (written by the host, not the guard).
    case vanishedTwice
    /// A module in a process of its own whose process its own faults ended this many times
    /// within a minute (written by the host, not the guard).
    case processFailures(Int)

    /// The word of ``processFailures(_:)``: the host's, not the C guard's.
    static let processFailuresWord = "process-failures "

    /// The outcome `text` spells; `nil` for a text that is none of the guard's words (a marker
    /// of another version, a damaged record, a line a module printed): never taken as a
    /// vanishing, which would warn of, or skip, a module for nothing it did.
    package init?(_ text: String) {
        let text = text.trimmedOfSpaces()
        func argument(after word: String) -> String? {
            guard text.hasPrefix(word) else { return nil }
            let rest = text.dropFirst(word.count)
            return rest.isEmpty || rest.contains(" ") ? nil : String(rest)
        }
        if let name = argument(after: MODHOST_OUTCOME_SIGNAL) {
            self = .signal(name)
        } else if let status = argument(after: MODHOST_OUTCOME_EXIT) {
            self = .exit(status)
        } else if text == MODHOST_OUTCOME_HANG {
            self = .hang
        } else if text == MODHOST_OUTCOME_RUNNING {
            self = .vanished
        } else if text == MODHOST_OUTCOME_VANISHED_TWICE {
            self = .vanishedTwice
        } else if let count = argument(after: Self.processFailuresWord).flatMap({ Int($0) }), count > 0 {
            self = .processFailures(count)
        } else {
            return nil
        }
    }

    /// The outcome as the marker and the records spell it.
    package var text: String {
        switch self {
        case .signal(let name): MODHOST_OUTCOME_SIGNAL + name
        case .exit(let status): MODHOST_OUTCOME_EXIT + status
        case .hang: MODHOST_OUTCOME_HANG
        case .vanished: MODHOST_OUTCOME_RUNNING
        case .vanishedTwice: MODHOST_OUTCOME_VANISHED_TWICE
        case .processFailures(let count): Self.processFailuresWord + "\(count)"
        }
    }
}
