import CHostGuard
import Glibc
import HostProcesses

/// A module's own process off the terminal: its standard input from /dev/null, its standard
/// output and error into the pipe the host reads and shows (``ChildOutput``), before its
/// module's code runs. It is on the terminal only while the host lends it
/// (``TerminalLoan/onTerminal(_:_:)``): what the module writes at any other time (a thread of
/// its own, its library's messages) is shown by the host, its control characters made
/// visible, and no key typed to the host is read there.
package enum OffTheTerminal {
    /// Moves this process's standard streams off the terminal, when the host passed the pipe
    /// (descriptor 4, a pipe, and said so in the environment); whether it did.
    @discardableResult
    package static func move() -> Bool {
        var status = stat()
        let pipe = ChildOutput.childDescriptor
        guard getenv(ChildOutput.environmentName).map({ String(cString: $0) }) == "\(pipe)",
            fstat(pipe, &status) == 0, status.st_mode & S_IFMT == S_IFIFO
        else { return false }
        // Not for what the module starts: its descriptor 4 is none of the host's.
        unsetenv(ChildOutput.environmentName)
        // The terminal's settings, for the guard to put back if a module call ends the
        // process while it is lent here (a screen in raw mode, a password read unechoed).
        modhost_guard_save_terminal()
        _ = modhost_flush_stdout()
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, STDIN_FILENO)
            close(null)
        }
        dup2(pipe, STDOUT_FILENO)
        dup2(pipe, STDERR_FILENO)
        close(pipe)
        // A module's `print` reaches the pipe at its line break, not at a flush that may come
        // during a loan (onto the lent terminal) or never (a kill).
        modhost_line_buffer_stdout()
        // What the guard puts back after a module call that replaced one of them.
        modhost_guard_keep_standard_descriptors_as_they_are()
        return true
    }
}
