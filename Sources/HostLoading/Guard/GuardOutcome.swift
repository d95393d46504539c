import Foundation

/// How a guarded module call ended, as the C guard writes it into the crash marker and into a
/// probe's report (see `modhost_guard_set_report`): the one vocabulary the two sides share.
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

    package init(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("signal ") {
            self = .signal(String(text.dropFirst("signal ".count)))
        } else if text.hasPrefix("exit ") {
            self = .exit(String(text.dropFirst("exit ".count)))
        } else if text == "hang" {
            self = .hang
        } else if text == "vanished twice" {
            self = .vanishedTwice
        } else {
            self = .vanished
        }
    }

    /// The outcome as the marker and the records spell it.
    package var text: String {
        switch self {
        case .signal(let name): "signal \(name)"
        case .exit(let status): "exit \(status)"
        case .hang: "hang"
        case .vanished: "running"
        case .vanishedTwice: "vanished twice"
        }
    }
}
