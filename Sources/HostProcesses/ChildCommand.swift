import CHostProcess
import Glibc

/// Child processes the host starts itself (`dev`'s build and host, `bisect`'s attempts,
/// `check`'s probe), all through this one spawner; those of `modhost` itself execute the
/// running binary (``RunningExecutable``), with posix_spawn: Foundation's Process.run() can crash the parent on this toolchain while
/// it lists /proc/self/fd (swift-corelibs-foundation #5472).
package enum ChildCommand {
    /// Where a child's standard streams go.
    package enum Output {
        /// The parent's own streams.
        case inherited
        /// Standard output and error to this descriptor; standard input from /dev/null.
        case descriptor(Int32)
        /// All three to /dev/null.
        case discarded
        /// Standard output to `descriptor` (a pipe's write end; `closing`, its read end, is
        /// closed in the child), standard input and error from and to /dev/null: what the
        /// child has to say comes through the pipe.
        case pipe(descriptor: Int32, closing: Int32)
    }

    /// What a child executes.
    package enum Program: Sendable {
        /// The running `modhost` itself (``RunningExecutable``), given these arguments.
        case host([String])
        /// Another program: its path, then its arguments.
        case command([String])

        /// `argv` and the file `execve` opens.
        var launch: (arguments: [String], path: String)? {
            switch self {
            case .host(let arguments): ([RunningExecutable.path] + arguments, RunningExecutable.executionPath)
            case .command(let command): command.first.map { (command, $0) }
            }
        }
    }

    /// Starts `command` (its first element is the executable's path); `nil` when it cannot.
    package static func spawn(_ command: [String], output: Output) -> pid_t? {
        start(.command(command), output: output).pid
    }

    /// Starts the running `modhost` with `arguments`; `nil` when it cannot.
    package static func spawnHost(_ arguments: [String], output: Output) -> pid_t? {
        start(.host(arguments), output: output).pid
    }

    /// Starts `program`: its process, or the error number posix_spawn answered. With
    /// `environment`, the child gets exactly that environment, else this process's; with
    /// `ownGroup`, it leads a process group of its own, so that `kill(-pid, …)` reaches what it
    /// starts too; with `link`, that descriptor is the child's descriptor 3 (its end of a
    /// socketpair to a process of the host's own); with `childOutput`, its pipe's write end is
    /// the child's descriptor 4 (``ChildOutput``).
    package static func start(
        _ program: Program, output: Output, environment: [String: String]? = nil, ownGroup: Bool = false, link: Int32? = nil,
        childOutput: ChildOutput? = nil
    ) -> (pid: pid_t?, error: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        switch output {
        case .inherited: break
        case .descriptor(let descriptor):
            posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
            posix_spawn_file_actions_adddup2(&actions, descriptor, 2)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .pipe(let descriptor, let closing):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addclose(&actions, closing)
        }
        // dup2 clears close-on-exec on the copy: only descriptors 3 and 4 cross.
        if let link { posix_spawn_file_actions_adddup2(&actions, link, ModuleProcess.linkDescriptor) }
        if let end = childOutput?.childEnd { posix_spawn_file_actions_adddup2(&actions, end, ChildOutput.childDescriptor) }
        guard let (command, path) = program.launch else { return (nil, ENOENT) }
        // On the way out (a signal): a child started now would outlive the cleanup.
        guard !ProcessCleanup.isEnding else { return (nil, ECANCELED) }
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // Told that its descriptor 4 is the pipe: only then does it take it for one; never told
        // so by an environment it inherited or was given.
        let marker = childOutput.map { _ in ["\(ChildOutput.environmentName)=\(ChildOutput.childDescriptor)"] } ?? []
        let entries: [String]? =
            if let environment {
                environment.filter { $0.key != ChildOutput.environmentName }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    + marker
            } else if !marker.isEmpty || getenv(ChildOutput.environmentName) != nil {
                inheritedEnvironment(without: ChildOutput.environmentName) + marker
            } else {
                nil
            }
        guard let entries else {
            let error = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
            return error == 0 ? (pid, 0) : (nil, error)
        }
        var envp = entries.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        let error = posix_spawn(&pid, path, &actions, &attributes, &argv, &envp)
        return error == 0 ? (pid, 0) : (nil, error)
    }

    /// This process's environment as `NAME=value` strings, but `name`'s.
    private static func inheritedEnvironment(without name: String) -> [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if !text.hasPrefix(name + "=") { entries.append(text) }
            index += 1
        }
        return entries
    }

    /// Waits for `pid` to end; its wait status.
    package static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Waits at most `limit` for `pid` to end, then kills it (`ending`: SIGKILL) and reaps it:
    /// its wait status, and whether it had to be killed. A child another waiter reaped first
    /// reads as status 0, not killed: its own status is gone with it.
    package static func wait(
        _ pid: pid_t, atMost limit: Duration, ending: (pid_t) -> Void = { Glibc.kill($0, SIGKILL) }
    ) -> (status: Int32, killed: Bool) {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = poll(pid) { return (status, false) }
            // Woken as it ends; where the kernel cannot say, looked at again in 2 ms.
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            let left = remaining.components
            let milliseconds = Int32(min(left.seconds, 1_000_000) * 1_000 + left.attoseconds / 1_000_000_000_000_000 + 1)
            if modhost_wait_for_end(pid, milliseconds) < 0 {
                // Reaped by someone else (no such process, not even a zombie): nothing to kill,
                // and the pid may already be another process's.
                if errno == ESRCH, poll(pid) == nil { return (0, false) }
                usleep(2_000)
            }
        }
        ending(pid)
        return (wait(pid), true)
    }

    /// A descriptor of child `pid` that polls readable once it has ended (a pidfd,
    /// close-on-exec; the caller closes it), or -1 where this kernel has none.
    package static func endDescriptor(of pid: pid_t) -> Int32 {
        modhost_process_descriptor(pid)
    }

    /// The wait status of `pid` if it has ended, without waiting.
    package static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? status : nil
    }

    /// The signal that ended the child, if one did (WIFSIGNALED, WTERMSIG).
    package static func signal(_ status: Int32) -> Int32? { status & 0x7f == 0 ? nil : status & 0x7f }

    /// A wait status as a shell reports it: the exit code, or 128 + the signal.
    package static func exitCode(_ status: Int32) -> Int32 {
        signal(status).map { 128 + $0 } ?? (status >> 8) & 0xff
    }
}
