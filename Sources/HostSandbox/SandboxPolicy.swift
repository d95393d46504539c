/// What a module's own process may do once it confines itself: the folders and files it may
/// read, map as code or write, and whether it may use the network and start programs. Paths
/// are absolute; one that is not there is left out (nothing beneath it exists to reach).
package struct SandboxPolicy: Sendable, Equatable {
    /// Read beneath: the module's strings, the time zones, what it declared it reads.
    package var reads: [String] = []
    /// Read and map as code beneath: the libraries the process maps or may still load.
    package var runs: [String] = []
    /// Read and write beneath: the module's own data folder, what it declared it writes.
    package var writes: [String] = []
    /// Paths among the above opened without following a symlink anywhere on the way (what a
    /// module declared); one that has one is left out, and said (``Sandbox/Confinement``).
    package var withoutSymlinks: Set<String> = []
    /// Sockets (but UNIX ones), TCP connect and bind.
    package var network = false
    /// `execve`: starting programs.
    package var exec = false
    /// The environment variables it keeps, beside the host's own (``hostEnvironment``).
    package var environment: [String] = []
    /// The resource limits set (``ResourceLimit``).
    package var limits: [ResourceLimit] = ResourceLimit.defaults

    package init() {}

    /// The processes it may have at once (``ResourceLimit/Kind/processes``).
    package var processes: Int { Int(limits.first { $0.kind == .processes }?.value ?? ResourceLimit.processesByDefault) }

    /// Files every process reads that are not libraries: the time zone, the dynamic linker's
    /// cache, the system's randomness, the null device, the processor count, and the locale
    /// aliases the C library reads when the kit's full screen asks for the person's character
    /// type (`C.UTF-8` is an alias).
    ///
    /// `/proc` too: libdispatch reads each of its worker threads' `/proc/<tid>/stat`, and ends
    /// the process when it cannot. What `/proc` guards of other processes (`environ`, `mem`,
    /// `maps`, descriptors) it guards with ptrace's access check, which Landlock narrows to the
    /// sandboxed process itself: the host's `/proc/<pid>/environ` stays out of reach.
    package static let systemReads = [
        "/etc/localtime", "/usr/share/zoneinfo", "/etc/ld.so.cache", "/dev/urandom", "/proc",
        "/sys/devices/system/cpu", "/etc/locale.alias", "/usr/share/locale/locale.alias",
    ]
    /// Files every process writes: the null device.
    package static let systemWrites = ["/dev/null"]
    /// What name resolution reads, for a module that uses the network.
    package static let networkReads = [
        "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf", "/etc/services",
        "/etc/ssl", "/usr/share/ca-certificates", "/usr/lib/ssl",
    ]
    /// What the host's own code in the module's process reads of the environment: its
    /// settings, the locale, the terminal, the time zone, where home is.
    package static let hostEnvironment = [
        "HOME", "PATH", "LANG", "LANGUAGE", "TERM", "COLORTERM", "NO_COLOR", "TZ", "COLUMNS", "LINES", "TMPDIR", "LC_ALL",
        "LC_CTYPE", "LC_MESSAGES", "LC_COLLATE", "LC_NUMERIC", "LC_TIME", "LC_MONETARY",
    ]
    /// Prefixes of the host's own variables, kept as above.
    package static let hostEnvironmentPrefixes = ["MODHOST_"]

    /// Where the programs a module with `exec` starts are.
    package static let programs = ["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"]
    /// Where the system's shared libraries are.
    package static let systemLibraries = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib"]
}

/// A resource limit a module's process runs under.
package struct ResourceLimit: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// `RLIMIT_DATA`: its data segment and private writable mappings, in bytes.
        case memory
        /// `RLIMIT_NOFILE`: open descriptors.
        case openFiles
        /// `RLIMIT_FSIZE`: the largest file it may write, in bytes.
        case fileSize
        /// `RLIMIT_CORE`: no core dumps of a module's memory.
        case coreSize
        /// The processes it may have at once, itself included. Not `RLIMIT_NPROC`, which counts
        /// every process of the user (and none of root's): the host counts the module's own
        /// (``SandboxRefusals``), each new one handed over by its filter.
        case processes
    }

    package var kind: Kind
    package var value: UInt64
    /// Set in `modules.json` (`"limits"`), not a default: lowered to the process's hard limit,
    /// it is said (a default is lowered without a word).
    package var isAsked: Bool

    package init(_ kind: Kind, _ value: UInt64, asked: Bool = false) {
        self.kind = kind
        self.value = value
        self.isAsked = asked
    }

    /// `value` of this kind as `modules.json` writes it (`openFiles 100`, `memoryMiB 512`); a
    /// size that is not a whole number of MiB in bytes (`memory 1000000000 bytes`).
    package func words(_ value: UInt64) -> String {
        switch kind {
        case .memory: value % (1 << 20) == 0 ? "memoryMiB \(value >> 20)" : "memory \(value) bytes"
        case .fileSize: value % (1 << 20) == 0 ? "fileSizeMiB \(value >> 20)" : "fileSize \(value) bytes"
        case .openFiles: "openFiles \(value)"
        case .coreSize: "coreSize \(value)"
        case .processes: "processes \(value)"
        }
    }

    /// The processes a module may have at once when modules.json does not say.
    package static let processesByDefault: UInt64 = 64

    /// The limits of a module's process.
    package static let defaults = [
        ResourceLimit(.memory, 2 << 30), ResourceLimit(.openFiles, 1024), ResourceLimit(.fileSize, 4 << 30),
        ResourceLimit(.coreSize, 0), ResourceLimit(.processes, processesByDefault),
    ]
}
