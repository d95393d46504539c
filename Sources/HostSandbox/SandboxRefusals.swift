import CHostSandbox
import Glibc
import HostProcesses

/// The calls a module's sandbox refuses, each told in one line as it happens: the module's
/// process hands its seccomp filter's calls to the host (`SECCOMP_RET_USER_NOTIF`), whose
/// watcher names each, then answers it `EPERM` (the module sees an ordinary failed call).
/// Landlock's refusals (a file, a TCP port) tell nobody: the module sees `EACCES`.
package enum SandboxRefusals {
    /// Most lines one process's refusals make; then one saying the rest go untold.
    package static let mostTold = 16

    /// Watches `notify` (the descriptor module `module`'s process `pid` passed, which this
    /// takes) on a thread of its own until no process uses its filter any more; `tell` is given
    /// each line before the call is answered. A signal the process sends itself is noted
    /// (``SelfSignals``) and let through.
    package static func watch(_ notify: Int32, module: String, pid: Int32, tell: @escaping @Sendable (String) -> Void) {
        // No thread, no watcher: closing the descriptor makes each refused call fail (ENOSYS).
        let watching = DetachedThread.start(named: "sandbox refusals") {
            defer { close(notify) }
            var told = 0
            var refusal = modhost_refusal()
            while true {
                let result = modhost_sandbox_next_refusal(notify, &refusal)
                if result == EAGAIN { continue }
                guard result == 0 else { return }
                if let signal = Signalling(refusal, module: pid) {
                    if signal.isAllowed {
                        if signal.toItself, Signalling.endsAProcess(signal.number) { SelfSignals.note(signal.number, by: pid) }
                        _ = modhost_sandbox_allow(notify, refusal.id)
                    } else {
                        told += 1
                        if told <= mostTold {
                            tell("module '\(module)' tried to send \(signal.words): refused by its sandbox (no module may)")
                        }
                        _ = modhost_sandbox_refuse(notify, refusal.id)
                    }
                    continue
                }
                told += 1
                if told <= mostTold {
                    tell("module '\(module)' \(describe(refusal)): refused by its sandbox (\(why(refusal)))")
                } else if told == mostTold + 1 {
                    tell("module '\(module)': its sandbox refused more; those are not told")
                }
                _ = modhost_sandbox_refuse(notify, refusal.id)
            }
        }
        if !watching { close(notify) }
    }

    /// What the module tried, in words.
    static func describe(_ refusal: modhost_refusal) -> String {
        let call = fixedCString(refusal.call)
        switch call {
        case "socket": return "tried to open a socket (\(family(refusal.first)))"
        case "execve", "execveat":
            let program = fixedCString(refusal.program)
            return program.isEmpty ? "tried to run a program" : "tried to run \(program)"
        case "ioctl": return "tried to type into the terminal"
        case "clone": return "tried to make a namespace (clone)"
        default: return "tried \(call)"
        }
    }

    /// What its manifest would have to declare, or that no module may.
    static func why(_ refusal: modhost_refusal) -> String {
        switch fixedCString(refusal.call) {
        case "socket" where Int32(truncatingIfNeeded: refusal.first) != AF_UNIX: "not declared: network"
        case "execve", "execveat": "not declared: exec"
        default: "no module may"
        }
    }

    private static func family(_ number: UInt64) -> String {
        switch Int32(truncatingIfNeeded: number) {
        case AF_UNIX: "AF_UNIX"
        case AF_INET: "AF_INET"
        case AF_INET6: "AF_INET6"
        case AF_NETLINK: "AF_NETLINK"
        case AF_PACKET: "AF_PACKET"
        default: "family \(number)"
        }
    }

}
