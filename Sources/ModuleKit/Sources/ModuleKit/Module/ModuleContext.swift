/// What the host gives a module: who it is, where it runs, how to log and resolve, and the
/// shared capabilities — its own storage, its strings, and the terminal UI.
public struct ModuleContext: Sendable {
    /// The module's name.
    public let moduleName: String
    /// The environment from `modules.json`.
    public let environment: HostEnvironment
    /// A logger labelled with the module's name.
    public let logger: Logger
    /// The module's view of the locator: its own services and the routes it declared.
    public let resolver: ModuleResolver
    /// The module's own data folder and databases.
    public let storage: ModuleStorage
    /// The module's localized strings, in the app's current locale.
    public let strings: ModuleStrings
    /// The app's locale, shared by every module (Settings changes it).
    public let locale: LocaleSetting
    /// The app's screen stack, shared by every module.
    public let navigator: Navigator
    /// The folder holding the module's library: where its resources are (SwiftPM's
    /// `<Package>_<Target>.resources` lands beside it).
    public let libraryFolder: String

    /// Titles, menus, forms and alerts on the app's terminal.
    @MainActor public var ui: TerminalUI { navigator.ui }

    public init(
        moduleName: String,
        environment: HostEnvironment,
        logger: Logger,
        resolver: ModuleResolver,
        storage: ModuleStorage,
        strings: ModuleStrings,
        locale: LocaleSetting,
        navigator: Navigator,
        libraryFolder: String = ""
    ) {
        self.moduleName = moduleName
        self.environment = environment
        self.logger = logger
        self.resolver = resolver
        self.storage = storage
        self.strings = strings
        self.locale = locale
        self.navigator = navigator
        self.libraryFolder = libraryFolder
    }
}
