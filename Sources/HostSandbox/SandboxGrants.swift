import CHostSandbox
import Glibc
import HostProcesses

/// What a module's sandbox lets it reach, as the host reads a call its process's filter handed
/// over: the folders and files it may read beneath, those it may write, and how many processes
/// it may have. The process sends them with its filter's descriptor (``payload``), one
/// `r PATH`, `w PATH` or `p COUNT` a line; the host names what lies beyond
/// (``SandboxRefusals``) or notes it (``SandboxAudit``).
package struct SandboxGrants: Sendable, Equatable {
    package private(set) var reads: [String] = []
    package private(set) var writes: [String] = []
    /// Where the programs it may run are, when it may run any (`exec`): `nil` when it may not.
    package private(set) var runs: [String]?
    /// Its processes at once, itself included; the default when the payload does not say.
    package private(set) var processes = Int(ResourceLimit.processesByDefault)

    /// The grants a process's payload names, each resolved through its symlinks as Landlock
    /// resolved them when the rules were made.
    package init(payload: [UInt8]) {
        for line in payload.split(separator: UInt8(ascii: "\n")) {
            if line.elementsEqual([UInt8(ascii: "x")]) { runs = runs ?? [] }
            guard line.count > 2 else { continue }
            let text = String(decoding: line.dropFirst(2), as: UTF8.self)
            switch line.first {
            // Resolved, two may be one (/bin and /usr/bin on a merged /usr): kept once.
            case UInt8(ascii: "x"):
                let folder = Self.resolved(text)
                if runs?.contains(folder) != true { runs = (runs ?? []) + [folder] }
            case UInt8(ascii: "p"): processes = Int(text) ?? processes
            case UInt8(ascii: "w"): writes.append(Self.resolved(text))
            default: reads.append(Self.resolved(text))
            }
        }
    }

    /// The payload a module's process sends: what its sandbox grants.
    package static func payload(reads: [String], writes: [String], runs: [String]?, processes: Int) -> [UInt8] {
        let programs = runs.map { $0.isEmpty ? ["x"] : $0.map { "x " + $0 } } ?? []
        return Array(
            (reads.map { "r " + $0 } + writes.map { "w " + $0 } + programs + ["p \(processes)"]).joinedConcretely(separator: "\n").utf8)
    }

    /// The system calls on files the filter hands over.
    package static let calls: Set<String> = [
        "open", "openat", "openat2", "creat", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        "truncate", "link", "linkat", "symlink", "symlinkat", "mknod", "mknodat",
    ]

    /// A call on a file, as its sandbox sees it.
    package struct FileCall: Equatable {
        /// The file, or for a call that makes, removes or renames, the name in its folder;
        /// absolute, its symlinks resolved as far as they are there.
        package var path: String
        /// Whether it writes, truncates, makes or removes.
        package var writes: Bool
        /// Whether `path` was resolved to the end (for a write, to its folder): what is not,
        /// Landlock alone can tell.
        package var isResolved: Bool
    }

    /// The file `call` (a call on a file the filter handed over) reaches; `nil` when its path
    /// could not be read, or it is no call on a file.
    package static func fileCall(_ call: modhost_refusal) -> FileCall? {
        let path = fixedCString(call.path)
        guard !path.isEmpty, path.hasPrefix("/") else { return nil }
        // What a call makes, removes or renames is its folder's to allow: the last name (a
        // symlink, say) is not followed.
        var writes = call.writes != 0
        if !writes, call.creates != 0 {
            var status = stat()
            writes = lstat(path, &status) != 0
        }
        let (resolved, whole) = writes ? resolved(path, followingLast: false) : resolved(throughItsOwnProc(path, caller: call.caller))
        return FileCall(path: resolved, writes: writes, isResolved: whole)
    }

    /// The old name of a rename or a link the filter handed over (whose ``fileCall(_:)`` is the
    /// new one), its folder resolved: a rename removes it there, a link makes it reachable from
    /// the new one's folder (Landlock's `REFER`, which only a write grant gives).
    package static func sourceCall(_ call: modhost_refusal) -> FileCall? {
        let path = fixedCString(call.source)
        guard !path.isEmpty, path.hasPrefix("/") else { return nil }
        let (resolved, whole) = resolved(path, followingLast: false)
        return FileCall(path: resolved, writes: true, isResolved: whole)
    }

    /// The program an `execve` the filter handed over runs, resolved to the file it is (as
    /// Landlock checks it), or `nil` when it could not be read or is not there.
    package static func program(_ call: modhost_refusal) -> String? {
        let path = fixedCString(call.path)
        guard path.hasPrefix("/") else { return nil }
        let (resolved, whole) = resolved(throughItsOwnProc(path, caller: call.caller))
        return whole ? resolved : nil
    }

    /// Whether `program` lies in a folder of programs these grants let it run.
    package func mayRun(_ program: String) -> Bool {
        (runs ?? []).contains { Self.isWithin(program, $0) }
    }

    /// Whether these grants cover `call`: a read beneath a read or write grant, a write beneath
    /// a write grant.
    package func covers(_ call: FileCall) -> Bool {
        call.writes ? writes.contains { Self.isWithin(call.path, $0) } : (reads + writes).contains { Self.isWithin(call.path, $0) }
    }

    /// `path` with its symlinks resolved as Landlock sees them: the file's, or its folder's for
    /// one not there yet (being made) or when not `followingLast`; and whether that went to the
    /// end (the file there, or its folder there).
    static func resolved(_ path: String, followingLast: Bool = true) -> (String, Bool) {
        if followingLast, let real = realpath(path, nil) {
            defer { free(real) }
            return (String(cString: real), true)
        }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return (path, false) }
        let folder = String(path[..<slash])
        guard let real = realpath(folder, nil) else { return (path, false) }
        defer { free(real) }
        let base = String(cString: real)
        return ((base == "/" ? "" : base) + String(path[slash...]), !followingLast)
    }

    static func resolved(_ path: String) -> String { resolved(path, followingLast: true).0 }

    /// `path`, or when it is a symlink to the caller's `/proc/self/…` (the loader's links to
    /// open descriptors), that file as the caller sees it: read here, `/proc/self` would be
    /// the host's.
    static func throughItsOwnProc(_ path: String, caller: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return path }
        let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard target.hasPrefix("/proc/self/") else { return path }
        return "/proc/\(caller)/" + target.dropFirst("/proc/self/".count)
    }

    static func isWithin(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
