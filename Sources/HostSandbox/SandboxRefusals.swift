import CHostSandbox
import Glibc
import HostProcesses

/// The calls a module's sandbox refuses, each told in one line as it happens: the module's
/// process hands its seccomp filter's calls to the host (`SECCOMP_RET_USER_NOTIF`), whose
/// watcher names each, then answers it `EPERM` (the module sees an ordinary failed call).
///
/// Its calls on files come too, since Landlock's refusals tell nobody: one beyond what its
/// sandbox grants is named and answered `EACCES`, as Landlock would; the rest go on to
/// Landlock, which still decides (a path changed between the host's look and the call gains
/// nothing). A read of a file not there goes on as well: the module sees `ENOENT`, as it would.
package enum SandboxRefusals {
    /// Most lines one process's refusals make; then one saying the rest go untold.
    package static let mostTold = 16

    /// Watches `notify` (the descriptor module `module`'s process `pid` passed, which this
    /// takes) on a thread of its own until no process uses its filter any more; `granted` is
    /// the payload that came with it (``SandboxGrants``); `tell` is given each line before the
    /// call is answered. A signal the process sends itself is noted (``SelfSignals``) and let
    /// through.
    package static func watch(
        _ notify: Int32, module: String, pid: Int32, granted payload: [UInt8], tell: @escaping @Sendable (String) -> Void
    ) {
        // No thread, no watcher: closing the descriptor makes each refused call fail (ENOSYS).
        let watching = DetachedThread.start(named: "sandbox refusals") {
            defer { close(notify) }
            let granted = SandboxGrants(payload: payload)
            var told = 0
            var refusal = modhost_refusal()
            while true {
                let result = modhost_sandbox_next_refusal(notify, &refusal)
                if result == EAGAIN { continue }
                guard result == 0 else { return }
                guard let (error, what) = judge(refusal, granted: granted, pid: pid) else {
                    _ = modhost_sandbox_allow(notify, refusal.id)
                    continue
                }
                told += 1
                if told <= mostTold {
                    tell("module '\(module)' \(what)")
                } else if told == mostTold + 1 {
                    tell("module '\(module)': its sandbox refused more; those are not told")
                }
                _ = modhost_sandbox_refuse(notify, refusal.id, error)
            }
        }
        if !watching { close(notify) }
    }

    /// A watcher for ``ModuleProcess/greet(_:passing:helloLimit:refusals:)`` of module `module`'s
    /// process, which gives `tell` each line.
    package static func watcher(
        module: String, tell: @escaping @Sendable (String) -> Void
    ) -> (_ notify: Int32, _ granted: [UInt8], _ pid: Int32) -> Void {
        { notify, granted, pid in watch(notify, module: module, pid: pid, granted: granted, tell: tell) }
    }

    /// `nil` when `refusal` (a call of process `pid` its filter handed over) goes on; otherwise
    /// the error it is answered and what it tried, in words.
    static func judge(_ refusal: modhost_refusal, granted: SandboxGrants, pid: Int32) -> (Int32, String)? {
        let call = fixedCString(refusal.call)
        if SandboxGrants.calls.contains(call) {
            if let file = SandboxGrants.fileCall(refusal), file.isResolved, !granted.covers(file) {
                return (EACCES, "tried to \(verb(call, file)) \(file.path): refused by its sandbox (not declared)")
            }
            // The old name of a rename (removed there) or of a link (reached from elsewhere:
            // Landlock answers EXDEV, so that a program copies instead).
            guard let source = SandboxGrants.sourceCall(refusal), source.isResolved, !granted.covers(source) else { return nil }
            let isLink = call.hasPrefix("link")
            return (
                isLink ? EXDEV : EACCES,
                "tried to \(isLink ? "link to" : "move") \(source.path): refused by its sandbox (not declared)"
            )
        }
        if call == "execve" || call == "execveat", granted.runs != nil {
            // With `exec`: a program outside the folders of programs, which Landlock refuses
            // (without Landlock, the host's refusal is the only one, and a race may pass it).
            guard let program = SandboxGrants.program(refusal), !granted.mayRun(program) else { return nil }
            let folders = (granted.runs ?? []).joined(separator: ", ")
            let from = folders.isEmpty ? "no folder" : folders
            return (EACCES, "tried to run \(program): refused by its sandbox (programs run from \(from) only)")
        }
        if startsAProcess(call, flags: refusal.first) {
            guard Descendants.count(inTreeOf: pid) >= granted.processes else { return nil }
            return (
                EAGAIN,
                "tried to start a process past its limit of \(granted.processes): refused by its sandbox (limits.processes in modules.json)"
            )
        }
        if let signal = Signalling(refusal, module: pid) {
            guard !signal.isAllowed else {
                if signal.toItself, Signalling.endsAProcess(signal.number) { SelfSignals.note(signal.number, by: pid) }
                return nil
            }
            return (EPERM, "tried to send \(signal.words): refused by its sandbox (no module may)")
        }
        return (EPERM, "\(describe(refusal)): refused by its sandbox (\(why(refusal)))")
    }

    /// Whether system call `call` (with clone's `flags`) starts a process (clone with a
    /// namespace flag makes a namespace, which no module may).
    static func startsAProcess(_ call: String, flags: UInt64) -> Bool {
        switch call {
        case "fork", "vfork": true
        case "clone": flags & namespaceFlags == 0
        default: false
        }
    }

    /// clone's flags that make a namespace (`CLONE_NEWNS`, `CLONE_NEWCGROUP` … `CLONE_NEWNET`).
    static let namespaceFlags: UInt64 = 0x7E02_0000

    /// What a call on a file tried to do, in words.
    static func verb(_ call: String, _ file: SandboxGrants.FileCall) -> String {
        switch call {
        case "open", "openat", "openat2", "creat", "truncate": file.writes ? "write" : "read"
        case "mkdir", "mkdirat": "make the folder"
        case "rmdir", "unlink", "unlinkat": "remove"
        case "rename", "renameat", "renameat2": "rename a file to"
        case "link", "linkat", "symlink", "symlinkat": "make a link at"
        default: "make"
        }
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
