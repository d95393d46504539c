import CHostGuard
import Glibc
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

/// Ends the process on SIGINT, SIGTERM, SIGHUP or SIGQUIT within a second, whatever module
/// code is doing; none of them is a module's doing.
///
/// The C guard's handler notes the signal and writes a byte to a pipe; a thread here then
/// stops the modules if none is mid-call (it never waits for the runtime's lock) and exits with
/// 128 + the signal. The guard's watchdog ends the process after one second if that stalls; a
/// second signal ends it at once. The terminal is restored on every path.
enum SignalTrap {
    /// The runtime the signal path stops, once there is one.
    static let runtime = Mutex<HostRuntime?>(nil)

    /// Installs the process-wide guard and its signal path; called once, by `main`.
    static func install() {
        // First: a host started with 0, 1 or 2 closed would otherwise give them to the pipe.
        modhost_guard_keep_standard_descriptors()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        modhost_guard_install(ends[1])
        OutputFailure.install { modhost_output_failed($0) }
        readEnd.withLock { $0 = ends[0] }
        // A plain thread: Foundation's Thread costs more at start-up than all it is used for.
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_create(&thread, &attributes, { _ in SignalTrap.waitAndEnd() }, nil)
        pthread_attr_destroy(&attributes)
    }

    /// The child `modhost dev` runs, if any: stopped with the host.
    static let child = Mutex<pid_t>(0)

    private static let readEnd = Mutex<Int32>(-1)

    /// The app's Check, if one runs: continued (a stopped process takes no other signal) and
    /// asked to end, so that it ends its probes and what they left and removes its temporary
    /// folders; waited for half a second at most (the guard's watchdog allows one), after
    /// which the exit kills its group anyway.
    private static func endCheckGroup() {
        let group = modhost_guard_child_group()
        guard group > 0 else { return }
        CheckFromTheApp.askToEnd(group)
        let deadline = ContinuousClock.now + .milliseconds(500)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let result = waitpid(group, &status, WNOHANG)
            if result == group || (result < 0 && errno == ECHILD) { return }
            usleep(5_000)
        }
    }

    /// Waits for the guard's byte, then stops the modules if it can and ends the process.
    private static func waitAndEnd() -> UnsafeMutableRawPointer? {
        let descriptor = readEnd.withLock { $0 }
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) < 0 && errno == EINTR {}
        let signal = modhost_guard_pending_signal()
        let running = child.withLock { $0 }
        if running > 0 { kill(running, SIGTERM) }
        endCheckGroup()
        // A check's probes and what they left, and its temporary folders.
        ProcessCleanup.run()
        let current = runtime.withLock { $0 }
        current?.stopIfIdle()
        current?.moduleGuard.finish()
        // What the app had written (a prompt) first, then a new line after the ^C the terminal
        // echoed, so the shell's prompt starts on a line of its own.
        _ = modhost_flush_stdout()
        _ = "\n".withCString { write(STDERR_FILENO, $0, 1) }
        // Lines held while the screen was full (see FullScreenMode), once the terminal is back.
        modhost_guard_restore_terminal()
        StandardError.writeHeld()
        modhost_guard_exit_now(128 + (signal == 0 ? SIGINT : signal))
    }
}
