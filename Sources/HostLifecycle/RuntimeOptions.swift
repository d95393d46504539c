import FoundationEssentials
import Glibc
import HostIsolation
import ModuleKit

/// One run's choices on top of `modules.json`.
public struct RuntimeOptions: Sendable {
    /// Load just these (plus what they require); `nil` for all enabled modules.
    public var only: [String]?
    /// Turned on for this run.
    public var enable: [String] = []
    /// Turned off for this run.
    public var disable: [String] = []
    public var logLevel: LogLevel = .warn
    /// The folder holding every module's data folder.
    public var dataFolder: String
    /// Modules (or `all`) whose recorded crash is forgotten: they are tried again.
    public var retry: [String] = []
    /// Whether crashes are recorded and recorded crashes skip modules (off for bisect's tries).
    public var recordsCrashes = true
    /// Plan without changing anything in the data folder (check, --help).
    public var readOnly = false
    /// Compute every library's SHA-256 (modules --json).
    public var hashLibraries = false
    /// Measure the memory each module's phases add (modules --timing); their time is always
    /// taken.
    public var measuresMemory = false
    /// Read the descriptors of disabled modules too, so that a report shows their version and
    /// routes (modules, check, --help); a run does not pay for it.
    public var describesEveryModule = false
    /// Libraries added with `--module` (absolute), passed on to child processes.
    public var extraModules: [String] = []
    /// Modules run in a process of their own for this run (`--isolate`), beside those whose
    /// `modules.json` entry says `"isolation": "process"`.
    public var isolate: [String] = []
    /// Isolated modules whose sandbox only notes what they use (`--sandbox-audit`): every module
    /// process of the run is told, and the host says at the end what each used.
    public var sandboxAudit: [String] = []
    /// The options a module's own process is started with (modules.json, the data folder, the
    /// added libraries, the log level), as the command line writes them.
    public var moduleHostOptions: [String] = []
    /// In a module's own process: the link to the host, and the routes the host serves it
    /// (registered in this process as proxies that call the host).
    package var parentLink: RouteLink?
    package var parentRoutes: [String] = []
    /// Module processes the command line started before the runtime was made, for it to take.
    package var earlyProcesses = EarlyProcesses()

    public init(
        only: [String]? = nil, enable: [String] = [], disable: [String] = [], logLevel: LogLevel = .warn,
        dataFolder: String = RuntimeOptions.defaultDataFolder()
    ) {
        self.only = only
        self.enable = enable
        self.disable = disable
        self.logLevel = logLevel
        self.dataFolder = dataFolder
    }

    /// `MODHOST_DATA_DIR`, else `$XDG_DATA_HOME/modhost`, else `~/.local/share/modhost`.
    public static func defaultDataFolder(environment: [String: String] = ProcessEnvironment.variables) -> String {
        if let folder = environment["MODHOST_DATA_DIR"], !folder.isEmpty { return folder }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/modhost" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/modhost"
    }
}
