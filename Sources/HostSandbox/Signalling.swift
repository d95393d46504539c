import CHostSandbox
import Glibc
import HostProcesses

/// A signal a module's process sends, as its filter handed the call over: to whom, which, and
/// whether it may. It may signal itself (or a thread of its own) and the processes it started;
/// any other process — the host, its group, every process it could reach — it may not. Landlock
/// scopes signals only from ABI 6, and a wait status alone does not tell a process that ended
/// itself from one ended from outside: the host sees each signal here.
struct Signalling {
    /// The calls that send a signal.
    static let calls: Set<String> = ["kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal"]

    /// The signal sent.
    let number: Int32
    /// Whether it goes to the sending process itself.
    let toItself: Bool
    /// Whether it may be sent: to itself, to a process it started, or signal 0 (a question).
    let isAllowed: Bool
    /// What is sent to whom, in words ("signal 15 (Terminated) to process 4242").
    let words: String

    /// The signal `call` sends, when it sends one, from module process `pid`.
    init?(_ call: modhost_refusal, module pid: Int32) {
        let name = fixedCString(call.call)
        guard Self.calls.contains(name) else { return nil }
        let first = Int32(truncatingIfNeeded: call.first)
        let target: Int32?
        switch name {
        case "kill", "rt_sigqueueinfo":
            (target, number) = (first, Int32(truncatingIfNeeded: call.second))
        case "tgkill", "rt_tgsigqueueinfo":
            (target, number) = (first, Int32(truncatingIfNeeded: call.third))
        case "tkill":
            // A thread's id: its process is the module's when the thread is one of its own.
            (target, number) = (Self.isThread(first, of: pid) ? pid : first, Int32(truncatingIfNeeded: call.second))
        default:  // pidfd_send_signal(pidfd, sig, …): the pid that descriptor of the module's holds.
            (target, number) = (Self.pid(ofDescriptor: first, in: pid), Int32(truncatingIfNeeded: call.second))
        }
        toItself = target == pid
        isAllowed = number == 0 || toItself || target.map { $0 > 0 && Self.isDescendant($0, of: pid) } == true
        let whom: String
        if let target {
            whom =
                target == pid
                ? "itself"
                : target == 0
                    ? "its process group"
                    : target == -1 ? "every process it may signal" : target < 0 ? "process group \(-Int64(target))" : "process \(target)"
        } else {
            whom = "a process through a descriptor"
        }
        words = "\(Self.name(number)) to \(whom)"
    }

    /// Whether `signal`'s default action ends a process (every one but those that stop, go on
    /// or are ignored).
    static func endsAProcess(_ signal: Int32) -> Bool {
        signal > 0 && ![SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGWINCH].contains(signal)
    }

    static func name(_ signal: Int32) -> String {
        guard signal > 0, let text = strsignal(signal) else { return "signal \(signal)" }
        return "signal \(signal) (\(String(cString: text)))"
    }

    private static func isThread(_ thread: Int32, of pid: Int32) -> Bool {
        var status = stat()
        return thread > 0 && stat("/proc/\(pid)/task/\(thread)", &status) == 0
    }

    /// Whether `process` descends from `ancestor` (its parent's parent's …, a few steps up).
    private static func isDescendant(_ process: Int32, of ancestor: Int32) -> Bool {
        var current = process
        for _ in 0..<16 {
            guard let parent = parentID(of: current), parent > 1 else { return false }
            if parent == ancestor { return true }
            current = parent
        }
        return false
    }

    /// The parent of `pid`, from `/proc/PID/stat` (its fourth field, after the name's `)`).
    private static func parentID(of pid: Int32) -> Int32? {
        guard let text = ProcFile.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1 else { return nil }
        return Int32(fields[1])
    }

    /// The pid a pidfd of process `pid` refers to (`Pid:` in its fdinfo).
    private static func pid(ofDescriptor descriptor: Int32, in pid: Int32) -> Int32? {
        guard descriptor >= 0, let text = ProcFile.read("/proc/\(pid)/fdinfo/\(descriptor)") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Pid:") {
            return Int32(String(line.dropFirst(4).filter { !$0.isWhitespace }))
        }
        return nil
    }

}
