import Contracts
import FoundationEssentials
import Glibc
import HostGraph
import HostLoading
import HostModel
import HostSandbox
@_spi(Host) import ModuleKit
import Synchronization

/// Runs the modules of one `modules.json`: loads the enabled libraries, orders them, registers
/// and starts them, seals the locator, and stops them in reverse order.
///
/// Every module that does not end up active gets a state and a reason; the others keep
/// working. ``planOnly()`` reads and checks every library's file without loading any (what
/// `modhost check` runs in its own process, before it loads each library in a child probe);
/// ``prepare()`` also loads them, short of `register`; ``start()`` runs the lifecycle.
public final class HostRuntime: Sendable {
    /// The name the host registers its own routes under.
    public static let hostName = "modhost"
    /// The key under which a module's strings name the module for people.
    static let moduleTitle: StringKey = "module.title"
    /// The host's version.
    public static let version = "0.1.0"

    public let configuration: HostConfiguration
    public let options: RuntimeOptions
    let locator: ServiceLocator
    /// The host's right to make resolvers of `locator` (see ``HostAccessKeeper``).
    let access: HostAccess
    let loader: ModuleLibraryLoader
    package let logger: Logger
    let hostInfo: HostInfo
    /// Records whose code runs, so a crash, an exit or a hang is named.
    package let moduleGuard: ModuleGuard
    /// The app's locale, shared by every module.
    public let locale: LocaleSetting
    /// In a module's own process, the person's language as the host last said it (see
    /// ``PersonsLanguage``).
    package let parentLanguage: ParentLanguage
    /// The app's screen stack and terminal, shared by every module.
    public let navigator: Navigator
    /// The host's own strings (the shell's screens, the UI's labels).
    public let strings: ModuleStrings
    /// Makes the screen that runs an isolated module's Home entry in its process: the app's to
    /// give (it knows the terminal's mode); without it, such entries are not shown.
    package let isolatedScreens = Mutex<IsolatedScreenMaker?>(nil)
    /// The files a module's own process maps before it opens its module's library, noted at
    /// the load phase (see HostRuntime+Sandbox.swift).
    let moduleProcessImages = Mutex<[String]?>(nil)
    /// The audits of isolated modules' sandboxes (`--sandbox-audit`), by module name.
    let sandboxAudits = Mutex<[String: SandboxAudit]>([:])
    /// The settings isolated modules registered, kept across their restarts.
    let isolatedSettings = IsolatedSettings()
    /// Each module's storage, made once (a module's own process opens its folder before it
    /// confines itself, and the module then uses that open folder).
    let storages = Mutex<[String: ModuleStorage]>([:])

    /// What the runtime knows at the end of a phase. Each phase makes a new one from the last
    /// (see `HostRuntime+Phases.swift`).
    package struct Snapshot: Sendable {
        var reports: [ModuleReport] = []
        /// Enabled modules whose library passed the checks, with its descriptor.
        var inspected: [String: InspectedLibrary] = [:]
        /// Descriptors of disabled modules, to explain what their consumers miss.
        var disabledDescriptors: [String: ModuleDescriptor] = [:]
        /// Modules skipped for a recorded crash, with the reason.
        var crashed: [String: HostText] = [:]
        var loaded: [String: LoadedModule] = [:]
        var contexts: [String: ModuleContext] = [:]
        var strings: [String: ModuleStrings] = [:]
        var plan = DependencyGraph.Plan(order: [], blocked: [:], providers: [:])
        /// The graph the plan came from, built once at planning with every failure known then;
        /// a later failure is added to it and the plan made again.
        var graph: DependencyGraph?
        var started: [String] = []
        /// Modules running in a process of their own, by name.
        var isolated: [String: IsolatedModule] = [:]
        /// What each module cost each phase, by name.
        var timings: [String: ModuleTiming] = [:]
    }

    /// The runtime's lock guards only this: the phase reached, and the snapshot readers see.
    /// No module code ever runs while it is held.
    let state = Mutex(RuntimeState())

    /// Creates a runtime for `configuration`.
    ///
    /// - Throws: ``RuntimeError`` when `--only`, `--enable` or `--disable` name a module that
    ///   `modules.json` lacks, or a module is both enabled and disabled.
    public init(
        configuration: HostConfiguration,
        options: RuntimeOptions = RuntimeOptions(),
        locator: ServiceLocator = .shared,
        loader: ModuleLibraryLoader = .shared,
        terminal: any Terminal = StandardTerminal(),
        environment: [String: String] = ProcessEnvironment.variables,
        logSink: (@Sendable (String) -> Void)? = nil
    ) throws(RuntimeError) {
        var configuration = configuration
        let retried = options.retry.filter { ModuleName($0) != ModuleName("all") }
        let named = [
            ("--only", options.only ?? []), ("--enable", options.enable), ("--disable", options.disable), ("--retry", retried),
            ("--isolate", options.isolate),
        ]
        for (flag, names) in named {
            for name in names where configuration.entry(named: name) == nil {
                throw RuntimeError(Self.noSuchModule(name, flag: flag, in: configuration))
            }
        }
        let enabled = Set(options.enable.map(ModuleName.init))
        if let both = options.disable.first(where: { enabled.contains(ModuleName($0)) }) {
            throw RuntimeError(
                HostText(
                    "usage.enabled.and.disabled", "'%@' is both enabled and disabled; pass only one of --enable and --disable",
                    [.plain(both)]))
        }
        for index in configuration.modules.indices {
            let name = configuration.modules[index].name
            if options.enable.containsModule(name) { configuration.modules[index].enabled = true }
            if options.disable.containsModule(name) { configuration.modules[index].enabled = false }
            if options.isolate.containsModule(name) { configuration.modules[index].isolation = .process }
            // In a module's own process, the module runs here.
            if options.parentLink != nil { configuration.modules[index].isolation = .none }
        }
        // A module's own process plans, checks and loads its module alone: every route the
        // module needs from another comes from the host, so no other library is read there.
        if options.parentLink != nil, let only = options.only {
            configuration.modules.removeAll { !only.containsModule($0.name) }
        }
        guard let access = HostAccessKeeper.access(to: locator) else {
            throw RuntimeError(
                HostText("usage.locator.claimed", "the locator's host access was claimed before the host's; run modules on a fresh one"))
        }
        self.access = access
        self.configuration = configuration
        self.options = options
        self.locator = locator
        self.loader = loader
        let sink = logSink ?? StandardError.write
        logger = Logger(label: Self.hostName, minimumLevel: options.logLevel, sink: sink)
        moduleGuard = ModuleGuard(
            dataFolder: options.dataFolder, recordsCrashes: options.recordsCrashes && !options.readOnly,
            victim: options.parentLink == nil ? "the host" : "its own process")
        hostInfo = HostInfo(hostVersion: Self.version, environment: configuration.environment.rawValue, dataFolder: options.dataFolder)
        let locale = LocaleSetting(environment: environment)
        self.locale = locale
        parentLanguage = ParentLanguage(locale: locale)
        // Read when first needed: a run in English that says nothing in the host's words (every
        // command's report, a module's own process) reads no table. One that is missing is said
        // now; one that cannot be read then shows keys, and `modhost check` names it.
        let strings: ModuleStrings
        var english = stat()
        if stat(Self.hostStringsFolder + "/en.lproj/Localizable.strings", &english) == 0 {
            strings = ModuleStrings.unread(module: Self.hostName, from: Self.hostStringsFolder, locale: locale)
        } else {
            // Read as before only to say why.
            do {
                strings = try ModuleStrings.load(module: Self.hostName, from: Self.hostStringsFolder, locale: locale)
            } catch {
                logger.error("the host's strings are missing, screens show keys: \(error)")
                strings = .none(locale: locale)
            }
        }
        self.strings = strings
        navigator = Navigator(ui: TerminalUI(terminal: GuardedTerminal(terminal), labels: { strings[StringKey($0.rawValue)] }))
        for (name, pid) in options.earlyProcesses.waitingProcesses {
            logger.debug("module '\(name)': its process (\(pid)) started before the checks")
        }
    }

    /// Why `flag NAME` names no module of `configuration`: with the nearest name when it looks
    /// mistyped, else the names it has.
    package static func noSuchModule(_ name: String, flag: String, in configuration: HostConfiguration) -> HostText {
        let known = configuration.modules.map(\.name)
        let hint =
            nearest(to: name, among: known) == nil && !known.isEmpty
            ? HostText("suggest.known.modules", "; its modules are %@", [.plain(known.joined(separator: ", "))])
            : suggestion(for: name, among: known)
        return HostText(
            "usage.no.such.module", "%@ '%@': no module named '%@' in '%@'%@",
            [.plain(flag), .plain(name), .plain(name), .plain(configuration.path), .text(hint)])
    }

    /// Where SwiftPM puts HostModel's resources (the host's strings): beside the executable that links it.
    package static var hostStringsFolder: String {
        ProcessLocation.executableFolder + "/ModuleHost_HostModel.resources/Strings"
    }

    /// Every module in file order, with its state and reason.
    public var modules: [ModuleReport] {
        read { snapshot in
            snapshot.reports.map { report in
                var report = report
                report.timing = snapshot.timings[report.name]
                if let isolated = snapshot.isolated[report.name] {
                    report.calls = isolated.routeCalls
                    // Its current process: a restart starts another.
                    report.processID = isolated.pid
                }
                return report
            }
        }
    }

    /// One line per module that will not (or did not) start, for `modhost check`.
    public var problems: [String] {
        modules.compactMap { report in
            guard report.state == .failed || report.state == .skipped, let reason = report.reasonText else { return nil }
            return HostText("problem.module", "module '%@': %@", [.plain(report.name), .text(reason)]).render(strings)
        }
    }

    /// The host's own view of the locator: it reaches every route.
    public var resolver: ModuleResolver { locator.hostResolver(name: Self.hostName, access: access) }

    /// Routes the host provides to every module.
    static let hostRoutes: [RouteKey] = [.route((any HostInfoRoute).self)]

    /// The names of the routes the host provides.
    package static var hostRouteNames: [String] { hostRoutes.map(\.name) }
}
