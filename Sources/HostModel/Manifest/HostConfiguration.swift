import FoundationEssentials
import Glibc
import ModuleKit

/// `modules.json`, decoded and checked: which modules the host loads, and their settings.
public struct HostConfiguration: Sendable {
    /// The file it was read from.
    public let path: String
    /// The folder of that file, absolute (against the current folder at the time it was read):
    /// where a module's relative `library` is taken from.
    public let folder: String
    public let environment: HostEnvironment
    /// Folders searched for `lib<Name>.so`, absolute, in order.
    public let searchPaths: [String]
    /// Every module, in file order.
    public var modules: [ModuleEntry] {
        didSet { if modules.count != positions.count || zip(modules, oldValue).contains(where: { $0.name != $1.name }) { index() } }
    }
    /// Each module's position by its name in lower case: a lookup per module stays O(1) with
    /// hundreds of modules.
    private var positions: [String: Int] = [:]

    public init(path: String, environment: HostEnvironment, searchPaths: [String], modules: [ModuleEntry]) {
        self.path = path
        folder = FilePaths.folder(of: FilePaths.absolute(path, relativeTo: FilePaths.currentFolder))
        self.environment = environment
        self.searchPaths = searchPaths
        self.modules = modules
        index()
    }

    private mutating func index() {
        positions = [:]
        for (position, entry) in modules.enumerated() where positions[ModuleName(entry.name).key] == nil {
            positions[ModuleName(entry.name).key] = position
        }
    }

    /// The entry named `name`, compared without case (module names are unique that way).
    public func entry(named name: String) -> ModuleEntry? {
        positions[ModuleName(name).key].map { modules[$0] }
    }
}

/// One module in `modules.json`.
public struct ModuleEntry: Sendable {
    public let name: String
    public var enabled: Bool
    /// The library path as written (absolute, or relative to `modules.json`), if given.
    public let library: String?
    /// The `config` object, as JSON, if given.
    public let config: [UInt8]?
    /// The library's SHA-256 (hex) it must have, if pinned.
    public let sha256: String?
    /// The time limit of its entry point, register, start and stop, if not the default.
    public let startTimeout: Duration?
    /// The position in the file's `modules` array, for messages; `nil` for a module added
    /// with `--module`.
    public let index: Int?
    /// Where the module runs: in the host's process, or in a process of its own.
    public var isolation: ModuleIsolation
    /// Capabilities its manifest declares that the operator takes away (`"deny"`).
    public var deny: [String]
    /// Whether it may start in a process whose sandbox this kernel cannot make whole.
    public var sandbox: SandboxRequirement
    /// Its sandboxed process's limits, where modules.json sets them.
    public var limits: ModuleLimits

    package init(
        name: String, enabled: Bool, library: String?, config: [UInt8]?, sha256: String?, startTimeout: Duration?, index: Int?,
        isolation: ModuleIsolation = .none, deny: [String] = [], sandbox: SandboxRequirement = .bestEffort,
        limits: ModuleLimits = ModuleLimits()
    ) {
        self.limits = limits
        self.isolation = isolation
        self.deny = deny
        self.sandbox = sandbox
        self.name = name
        self.enabled = enabled
        self.library = library
        self.config = config
        self.sha256 = sha256
        self.startTimeout = startTimeout
        self.index = index
    }
}

/// Where a module runs (`"isolation"` in `modules.json`, `--isolate NAME` for one run).
public enum ModuleIsolation: String, Sendable, CaseIterable {
    /// In the host's process (the default): the cheapest, and a crash ends the app.
    case none
    /// In a process of its own: its crash, exit or hang ends only that process.
    case process
}

/// What a module in a process of its own needs of its sandbox (`"sandbox"` in `modules.json`).
public enum SandboxRequirement: String, Sendable, CaseIterable {
    /// Whatever this kernel can enforce; `modules` and `check` say what it cannot.
    case bestEffort = "best-effort"
    /// Every part, or the module does not start.
    case required
    /// None: its process reaches all the host's user may (a process of its own still keeps
    /// its crash from the app). The operator's choice for a module they trust, or to measure
    /// what the sandbox costs; `modules` and `check` say so.
    case off
}

/// The resource limits of a module's sandboxed process that modules.json sets (`"limits"`);
/// `nil` keeps the default (docs/ISOLATION.md, "Its sandbox").
public struct ModuleLimits: Sendable, Equatable {
    /// Its data and private writable memory, in MiB.
    public var memoryMiB: Int?
    /// Its open descriptors.
    public var openFiles: Int?
    /// The largest file it may write, in MiB.
    public var fileSizeMiB: Int?
    /// The processes it may have at once, itself included.
    public var processes: Int?
    /// The CPU time, in seconds, its processes may use within one call the host waits on
    /// without a time limit (a command, a screen): the host counts it and ends the process
    /// past it.
    public var cpuSeconds: Int?

    public init(memoryMiB: Int? = nil, openFiles: Int? = nil, fileSizeMiB: Int? = nil, processes: Int? = nil, cpuSeconds: Int? = nil) {
        self.memoryMiB = memoryMiB
        self.openFiles = openFiles
        self.fileSizeMiB = fileSizeMiB
        self.processes = processes
        self.cpuSeconds = cpuSeconds
    }

    /// The CPU time a call without a time limit may use when modules.json does not say.
    public static let cpuSecondsByDefault = 60

    /// What each may be set to.
    static let ranges: [String: ClosedRange<Int>] = [
        "memoryMiB": 64...1_048_576, "openFiles": 64...1_048_576, "fileSizeMiB": 1...16_777_216, "processes": 1...4_096,
        "cpuSeconds": 1...86_400,
    ]
}
