import CHostGuard
import ModuleKit

/// The app's terminal, with the guard standing aside while it waits for a person: a process
/// killed at a prompt of a module's screen was not killed by the module.
final class GuardedTerminal: Terminal {
    private let terminal: any Terminal

    init(_ terminal: any Terminal) {
        self.terminal = terminal
    }

    func readLine() -> String? {
        modhost_guard_suspend()
        defer { modhost_guard_resume() }
        return terminal.readLine()
    }

    func readSecret() -> String? {
        modhost_guard_suspend()
        defer { modhost_guard_resume() }
        return terminal.readSecret()
    }

    func write(_ text: String) { terminal.write(text) }
    var usesColor: Bool { terminal.usesColor }
    var isInteractive: Bool { terminal.isInteractive }
}
