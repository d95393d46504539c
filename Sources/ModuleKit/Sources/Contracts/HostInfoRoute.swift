/// What the host tells modules about itself and the modules it runs (for an About screen).
///
/// ```swift
/// let host: any HostInfoRoute = try context.resolver.inject()
/// for module in host.modules where module.moduleState != .active { print(module.name, module.reason ?? "") }
/// ```
public protocol HostInfoRoute: Sendable {
    /// The host's version (`modhost --version`).
    var hostVersion: String { get }
    /// The environment named in `modules.json`.
    var environment: String { get }
    /// Every module in `modules.json`, in file order, with the state it ended start-up in.
    var modules: [ModuleStatus] { get }
    /// The folder modules keep their data in.
    var dataFolder: String { get }
    /// `modhost <module> <command>` usage lines of the active modules, with their summaries.
    var commands: [String] { get }
    /// What `modhost check` says of this run's `modules.json` and modules, line by line in the
    /// current language (every problem, or that all is ready); checked anew at each call, in
    /// child processes, so it takes a moment. `nil` where the host cannot check: outside the
    /// app (in a module's command), or from a conformance that keeps the default below (a
    /// test double written before SDK 1.5.0).
    ///
    /// - Since: SDK 1.5.0.
    func check() -> [String]?
}

extension HostInfoRoute {
    /// Cannot check: what a conformance written before SDK 1.5.0 answers.
    ///
    /// - Since: SDK 1.5.0.
    public func check() -> [String]? { nil }
}

/// Where a module ended start-up.
///
/// - Since: SDK 1.7.0. Later releases may add states: a `switch` over it needs
///   `@unknown default`.
public enum ModuleState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Registered and started.
    case active
    /// Turned off in `modules.json`, by `--disable`, or not selected by `--only`.
    case disabled
    /// Its own problem: it did not load, its config is wrong, it is in a cycle, it provides a
    /// route another module provides, or it threw in register or start.
    case failed
    /// Not started because a route it requires is unavailable.
    case skipped
}

/// One module as the host sees it.
public struct ModuleStatus: Sendable, Hashable, Codable {
    /// The module's name.
    public let name: String
    /// Where the module ended start-up.
    ///
    /// - Since: SDK 1.7.0.
    public let moduleState: ModuleState
    /// `active`, `disabled`, `failed` or `skipped`: ``moduleState``'s word.
    @available(*, deprecated, renamed: "moduleState", message: "a typed state since SDK 1.7.0")
    public var state: String { moduleState.rawValue }
    /// Why the module is not active; `nil` when it is.
    public let reason: String?
    /// The version the library reports; `nil` when it was not loaded.
    public let version: String?
    /// The module's name for people, in the current language (its strings' `module.title`),
    /// else its name.
    public let title: String

    /// - Since: SDK 1.7.0.
    public init(name: String, state: ModuleState, reason: String?, version: String?, title: String? = nil) {
        self.name = name
        self.moduleState = state
        self.reason = reason
        self.version = version
        self.title = title ?? name
    }

    /// A state given as its word; a word this SDK does not know reads as `.failed`.
    @available(*, deprecated, message: "give the state as a ModuleState (SDK 1.7.0)")
    public init(name: String, state: String, reason: String?, version: String?, title: String? = nil) {
        self.init(name: name, state: ModuleState(rawValue: state) ?? .failed, reason: reason, version: version, title: title)
    }
}
