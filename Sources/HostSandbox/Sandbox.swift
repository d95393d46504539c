import CHostSandbox
import Glibc

/// Puts this process in a sandbox it cannot leave, nor anything it starts: its resource
/// limits, no capabilities (a process run by root keeps none), then Landlock (files, TCP,
/// signals and abstract sockets scoped to itself), then a seccomp filter. Called by a module's
/// own process after it loaded the kit and the runtime and before the module's library is
/// opened.
package enum Sandbox {
    /// What the sandbox enforces on this kernel, and what it cannot.
    package struct Confinement: Sendable, Equatable {
        /// The kernel's Landlock ABI; 0 when it has none.
        package var landlockABI: Int32
        /// Each declared restriction this kernel cannot enforce, in words.
        package var notEnforced: [String]
        /// Declared paths left out, each with why (a symlink on its way), and limits asked for
        /// in `modules.json` that the process's hard limit lowered.
        package var leftOut: [String] = []
        /// The descriptor on which the calls its filter refuses are handed over, to be
        /// refused and named by the host (``SandboxRefusals``); the caller's to pass and close.
        package var refusals: Int32?
        /// What it may read and write of the files (as ``SandboxGrants/payload(reads:writes:runs:processes:)``),
        /// for the host to tell a call on a file its sandbox refuses: the paths Landlock was
        /// given (without those left out), or in the audit mode and without Landlock, the policy's.
        package var granted: [UInt8] = []
        /// Whether its seccomp filter is the program the host made (else built in the process).
        package var filterFromHost = false

        /// No sandbox at all (`"sandbox": "off"`).
        package static let none = Confinement(landlockABI: 0, notEnforced: ["anything: its sandbox is off"])
    }

    /// Why the process could not confine itself.
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// The Landlock ABI the sandbox uses: this kernel's (0 when it has none), or a lower one
    /// that `MODHOST_LANDLOCK_ABI` asks for (to see, on a new kernel, what an older one leaves
    /// unenforced: the sandbox is then really made at that ABI).
    package static var landlockABI: Int32 {
        let kernel = modhost_sandbox_landlock_abi()
        guard let asked = getenv("MODHOST_LANDLOCK_ABI").flatMap({ Int32(String(cString: $0)) }), (0..<kernel).contains(asked)
        else { return kernel }
        return asked
    }

    /// The filter ``confine(_:audit:program:)`` loads for a module of these grants, made into a
    /// program for its process to load: a sealed memory file (close-on-exec; the caller passes
    /// and closes it), or `nil` when it could not be made (the process then builds its own).
    package static func filterProgram(network: Bool, exec: Bool) -> Int32? {
        var program: Int32 = -1
        return modhost_sandbox_filter_program(network ? 1 : 0, exec ? 1 : 0, &program) == 0 ? program : nil
    }

    /// What `policy` leaves unenforced on a kernel of Landlock `abi`.
    package static func notEnforced(_ policy: SandboxPolicy, abi: Int32) -> [String] {
        var missing: [String] = []
        if abi < 1 { missing.append("files: the kernel has no Landlock") }
        if abi < 3 && abi >= 1 { missing.append("truncating files outside its folders: Landlock ABI \(abi) < 3") }
        if !policy.network && abi < 4 { missing.append("TCP connect and bind: Landlock ABI \(abi) < 4 (other sockets are still refused)") }
        // Signals and abstract UNIX sockets, which Landlock scopes from ABI 6, the filter refuses
        // on every kernel (a signal to any other process, every UNIX socket).
        return missing
    }

    /// Confines this process to `policy`, with a filter that hands what it refuses, and every
    /// call on a file, to the host (``SandboxRefusals``), which names what it refuses; with
    /// `audit`, to its limits and environment only, the host letting each call through
    /// (``SandboxAudit``).
    ///
    /// - Parameters:
    ///   - program: The filter as the host made it (``filterProgram(network:exec:)``), loaded as
    ///     it is when it was made for `policy`'s grants.
    ///   - ruleset: The Landlock ruleset the host made of `policy`'s paths (``ruleset(for:abi:)``),
    ///     which the process restricts itself with; closed in every case. Its grants are then
    ///     the host's to know, and the confinement's `granted` is empty.
    /// - Throws: ``Failure`` naming the step that failed; the process must then not run the
    ///   module (it is not confined as declared).
    package static func confine(
        _ policy: SandboxPolicy, audit: Bool = false, program: Int32? = nil, ruleset: Int32? = nil
    ) throws(Failure) -> Confinement {
        // The host's ruleset is closed on every way out: restricting with it closes it.
        var unused = ruleset
        defer { if let unused { close(unused) } }
        // Landlock and capabilities hold for the calling thread and those it starts after:
        // a thread already running would stay outside.
        let threads = threadCount()
        guard threads == 1 else {
            throw Failure(description: "its sandbox failed: \(threads) threads ran before it was made, and would stay outside it")
        }
        var lowered: [String] = []
        for limit in policy.limits { if let said = try set(limit) { lowered.append(said) } }
        keepOnly(policy.environment)
        let dropped = modhost_sandbox_drop_capabilities()
        guard dropped == 0 else { throw Failure(description: "its sandbox failed: its capabilities were not dropped: \(message(dropped))") }
        let abi = landlockABI
        var leftOut = lowered
        if audit {
            var notify: Int32 = -1
            let filtered = modhost_sandbox_filter(0, 0, 1, 0, &notify)
            guard filtered == 0, notify >= 0 else {
                throw Failure(
                    description: "its sandbox audit needs seccomp's user notification, which this system refused: \(message(filtered))")
            }
            return Confinement(
                landlockABI: abi, notEnforced: ["everything: its sandbox is in audit mode"], leftOut: leftOut, refusals: notify,
                granted: SandboxGrants.payload(
                    reads: policy.reads + policy.runs, writes: policy.writes, runs: nil, processes: policy.processes))
        }
        // Without Landlock, what the host tells from is the policy's paths.
        var granted = SandboxGrants.payload(
            reads: policy.reads + policy.runs, writes: policy.writes, runs: policy.exec ? policy.runs : nil, processes: policy.processes)
        if abi >= 1 {
            // The host's ruleset, made for this policy while this process started (the host
            // knows what it grants); else made here.
            var descriptor = ruleset ?? -1
            unused = nil
            if ruleset == nil {
                let made = try Self.ruleset(for: policy, abi: abi)
                (descriptor, granted) = (made.descriptor, made.granted)
                leftOut += made.leftOut
            } else {
                granted = []
            }
            let result = modhost_sandbox_restrict(descriptor)
            guard result == 0 else {
                throw Failure(description: "its sandbox failed: Landlock did not confine the process: \(message(result))")
            }
        }
        // Its calls on files go to the host too, which names what lies beyond its grants.
        var refusals: Int32 = -1
        let (network, exec): (Int32, Int32) = (policy.network ? 1 : 0, policy.exec ? 1 : 0)
        // The host's program for this filter when it made one for the same grants; built here
        // when there is none or it failed in any way.
        var filtered = program.map { modhost_sandbox_load_program($0, network, exec, &refusals) } ?? EINVAL
        let filterFromHost = filtered == 0
        if filtered != 0 {
            refusals = -1
            filtered = modhost_sandbox_filter(network, exec, 0, 1, &refusals)
        }
        // A filter above that already hands its calls to someone (some container runtimes),
        // or a kernel before 5.0: refused as well, without a name.
        if filtered != 0 {
            refusals = -1
            filtered = modhost_sandbox_filter(network, exec, 0, 0, nil)
        }
        guard filtered == 0 else {
            throw Failure(description: "its sandbox failed: the seccomp filter was not loaded: \(message(filtered))")
        }
        return Confinement(
            landlockABI: abi, notEnforced: notEnforced(policy, abi: abi), leftOut: leftOut, refusals: refusals >= 0 ? refusals : nil,
            granted: granted, filterFromHost: filterFromHost)
    }

    /// A Landlock ruleset of a policy's paths, to restrict a process with: the host makes one
    /// for a module's process while that process starts, and passes it with its hello.
    package struct Ruleset: Sendable {
        /// Its descriptor (close-on-exec); the caller's to pass and close.
        package let descriptor: Int32
        /// What it grants, the paths that were there (as ``SandboxGrants/payload(reads:writes:runs:processes:)``).
        package let granted: [UInt8]
        /// Declared paths left out, each with why (a symlink on its way).
        package let leftOut: [String]
    }

    /// The ruleset of `policy`'s paths on a kernel of Landlock `abi` (1 or more).
    ///
    /// - Throws: ``Failure`` when Landlock refuses the ruleset or a rule.
    package static func ruleset(for policy: SandboxPolicy, abi: Int32) throws(Failure) -> Ruleset {
        let ruleset = modhost_sandbox_ruleset(abi, policy.network ? 1 : 0)
        guard ruleset >= 0 else { throw Failure(description: "its sandbox failed: Landlock refused a ruleset: \(message(-ruleset))") }
        let rules =
            policy.reads.map { ($0, Int32(MODHOST_SANDBOX_READ.rawValue)) }
            + policy.runs.map { ($0, Int32(MODHOST_SANDBOX_READ.rawValue | MODHOST_SANDBOX_EXECUTE.rawValue)) }
            + policy.writes.map { ($0, Int32(MODHOST_SANDBOX_READ.rawValue | MODHOST_SANDBOX_WRITE.rawValue)) }
        var (reads, writes, runs, leftOut): ([String], [String], [String], [String]) = ([], [], [], [])
        for (path, access) in rules {
            let strict = policy.withoutSymlinks.contains(path)
            let result = modhost_sandbox_allow_path(ruleset, abi, path, access, strict ? 1 : 0)
            if strict && result == ELOOP {
                leftOut.append("'\(path)' is not granted: its path goes through a symlink")
                continue
            }
            if result == 0 {
                if access & Int32(MODHOST_SANDBOX_WRITE.rawValue) != 0 {
                    writes.append(path)
                } else {
                    reads.append(path)
                }
                if access & Int32(MODHOST_SANDBOX_EXECUTE.rawValue) != 0 { runs.append(path) }
            }
            // A path not there holds nothing to reach; leaving it out refuses nothing more.
            guard result == 0 || result == ENOENT || result == ENOTDIR else {
                close(ruleset)
                throw Failure(description: "its sandbox failed: Landlock refused the rule for '\(path)': \(message(result))")
            }
        }
        return Ruleset(
            descriptor: ruleset,
            granted: SandboxGrants.payload(reads: reads, writes: writes, runs: policy.exec ? runs : nil, processes: policy.processes),
            leftOut: leftOut)
    }

    /// Sets `limit`; what it says when the process's hard limit lowered a limit the operator
    /// asked for (`nil` otherwise).
    private static func set(_ limit: ResourceLimit) throws(Failure) -> String? {
        let kind: __rlimit_resource? =
            switch limit.kind {
            case .processes: nil  // the host counts them
            case .memory: RLIMIT_DATA
            case .openFiles: RLIMIT_NOFILE
            case .fileSize: RLIMIT_FSIZE
            case .coreSize: RLIMIT_CORE
            }
        guard let kind else { return nil }
        let resource = __rlimit_resource_t(kind.rawValue)
        var current = rlimit()
        guard getrlimit(resource, &current) == 0 else {
            throw Failure(description: "its sandbox failed: limit \(limit.kind.rawValue): \(message(errno))")
        }
        // Never above the hard limit the process was given: a limit only narrows.
        let value = rlim_t(min(limit.value, UInt64(current.rlim_max)))
        var wanted = rlimit(rlim_cur: value, rlim_max: value)
        guard setrlimit(resource, &wanted) == 0 else {
            throw Failure(description: "its sandbox failed: limit \(limit.kind.rawValue) \(limit.value): \(message(errno))")
        }
        guard limit.isAsked, value < limit.value else { return nil }
        return "limit \(limit.words(limit.value)) lowered to \(limit.words(UInt64(value))), the hard limit this host was started with"
    }

    /// Leaves this process only the host's own environment variables and `declared`: a
    /// module reads no secret it did not declare (an API key meant for another module),
    /// neither with `getenv` nor in `/proc/self/environ`, whose copy is zeroed.
    static func keepOnly(_ declared: [String]) {
        // Copied as bytes before the environment is cleared: a name and its value are kept
        // exactly as they were (bytes that are not UTF-8 too), the name read up to its first '='.
        var kept: [(name: String, cName: [CChar], value: [CChar])] = []
        var entry = environ
        while let pointer = entry.pointee {
            entry += 1
            guard let equals = strchr(pointer, Int32(UInt8(ascii: "="))) else { continue }
            let length = pointer.distance(to: equals)
            let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            let keeps =
                declared.contains(name) || SandboxPolicy.hostEnvironment.contains(name)
                || SandboxPolicy.hostEnvironmentPrefixes.contains { name.hasPrefix($0) }
            guard keeps, !kept.contains(where: { $0.name == name }) else { continue }
            let cName: [CChar] = Array(UnsafeBufferPointer(start: pointer, count: length)) + [0]
            kept.append((name, cName, Array(UnsafeBufferPointer(start: equals + 1, count: strlen(equals + 1) + 1))))
        }
        clearenv()
        for (_, cName, value) in kept { _ = setenv(cName, value, 1) }
        _ = modhost_sandbox_wipe_initial_environment()
    }

    /// The threads of this process (`/proc/self/task`); 0 when it cannot be read.
    static func threadCount() -> Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
