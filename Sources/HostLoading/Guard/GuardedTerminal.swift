import CHostGuard
@_spi(Host) import ModuleKit

/// The app's terminal, with the guard standing aside while it waits for a person: a process
/// killed at a prompt of a module's screen was not killed by the module.
package final class GuardedTerminal: Terminal {
    private let terminal: any Terminal

    package init(_ terminal: any Terminal) {
        self.terminal = terminal
    }

    package func readLine() -> String? {
        modhost_guard_suspend()
        defer { modhost_guard_resume() }
        return terminal.readLine()
    }

    package func readSecret() -> String? {
        modhost_guard_suspend()
        defer { modhost_guard_resume() }
        return terminal.readSecret()
    }

    package func write(_ text: String) { terminal.write(text) }
    package func redrawLine(_ text: String) { terminal.redrawLine(text) }
    package var usesColor: Bool { terminal.usesColor }
    package var isInteractive: Bool { terminal.isInteractive }
}

/// The kit's own composed lines reach the terminal as the kit wrote them.
extension GuardedTerminal: ComposedOutput {
    package func writeComposed(_ composed: String) {
        if let composing = terminal as? any ComposedOutput { composing.writeComposed(composed) } else { terminal.write(composed) }
    }
}
