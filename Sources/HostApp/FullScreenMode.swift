import CHostGuard
import Glibc
@_spi(Host) import ModuleKit

/// Whether the app runs full screen, and entering and leaving that mode with the guard told:
/// a crash, a signal or the watchdog then put the screen back too, not only the terminal.
@MainActor
package enum FullScreenMode {
    /// Full screen when a person is at a terminal that can show it: standard input and output
    /// a TTY, `TERM` set and not `dumb`, the character locale not C, and neither `--plain` nor
    /// `MODHOST_UI=plain`. Pipes and scripts keep the line mode, exactly as before.
    nonisolated package static func wanted(plain: Bool, environment: [String: String]) -> Bool {
        guard !plain, environment["MODHOST_UI"] != "plain" else { return false }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return false }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return locale != "C" && locale != "POSIX"
    }

    /// Enters the mode; `false` when the terminal refused (the line mode stays).
    /// Whether the app is full screen now (a module's process of its own is told so).
    package private(set) static var isActive = false

    package static func enter(_ ui: TerminalUI, strings: ModuleStrings) -> Bool {
        modhost_guard_set_screen_reset(TerminalUI.fullScreenResetSequence)
        let entered = ui.enterFullScreen(strings: { strings[StringKey($0)] }) { wait in
            // Waiting for a person: no module is running.
            modhost_guard_suspend()
            wait()
            modhost_guard_resume()
        }
        if !entered { modhost_guard_set_screen_reset(nil) }
        if entered && !isActive && errorsGoToTheScreen {
            // A line written to standard error now would land anywhere on the screen: held,
            // and shown above the next screen as the screen's own notes are.
            holding = true
            StandardError.hold()
            ui.beforeEachScreen = { ui in
                for line in StandardError.takeHeld() { ui.print(line.hasSuffix("\n") ? String(line.dropLast()) : line) }
            }
        }
        isActive = entered
        return entered
    }

    package static func leave(_ ui: TerminalUI) {
        // What the screen was to show above its next question (held lines among it) is not
        // lost with it: held again, or written once nothing holds.
        let unshown = ui.takeUnshownNotes()
        ui.leaveFullScreen()
        modhost_guard_set_screen_reset(nil)
        StandardError.putBack(unshown)
        if holding {
            holding = false
            ui.beforeEachScreen = nil
            StandardError.unhold()
        }
        isActive = false
    }

    /// Whether this mode holds standard error (see ``enter(_:strings:)``).
    private static var holding = false

    /// Whether lines written to standard error are held while the screen is full.
    package static var holdsErrors: Bool { holding }

    /// Whether standard error is the terminal the screen is drawn on: a redirected one
    /// (`2>log`) gets its lines as they come.
    private static var errorsGoToTheScreen: Bool {
        var error = stat()
        var output = stat()
        guard isatty(STDERR_FILENO) == 1, fstat(STDERR_FILENO, &error) == 0, fstat(STDOUT_FILENO, &output) == 0 else { return false }
        return error.st_rdev == output.st_rdev
    }
}
