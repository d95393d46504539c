/// A feature module: a named, versioned unit that registers routes and services and is
/// started and stopped by the host.
///
/// A module says what it **provides** (routes other modules may resolve), what it
/// **requires** (routes without which it cannot start) and what it **uses** (routes it works
/// without). The host orders modules from that, and a module can resolve only routes it
/// declared. The host decodes the module's `config` object from `modules.json` into
/// ``Configuration``.
///
/// The name, version and routes are written once, in the target's `module.manifest`
/// (`type GeoModule`, `name Geo`, `version 1.0.0`, `import Contracts`, `provides GeoRoute`,
/// `uses AuthRoute`); the kit's ModuleDescriptorPlugin generates these requirements from it,
/// and a module does not write them by hand.
///
/// ```swift
/// final class GeoModule: Module {
///     struct Configuration: Decodable { var defaultCountry: String? }
///     init() {}
///     func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
///         try registry.route((any GeoRoute).self, .singleton(GeoRouter()))
///     }
/// }
///
/// @_cdecl("modhost_module_entry")
/// public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(GeoModule.self, request) }
/// ```
public protocol Module: AnyObject {
    /// The module's own settings, decoded from its `config` object in `modules.json`.
    associatedtype Configuration: Decodable = NoConfiguration

    /// The module's name; must equal its `name` in `modules.json`.
    static var name: String { get }
    /// The module's version.
    static var version: String { get }
    /// Routes this module registers for others.
    static var provides: [RouteKey] { get }
    /// Routes this module cannot start without.
    static var requires: [RouteKey] { get }
    /// Routes this module resolves when they are available.
    static var uses: [RouteKey] { get }
    /// The folder, relative to the module's library, that holds its strings
    /// (`<locale>.lproj/Localizable.strings`); `nil` for a module without strings. SwiftPM
    /// copies a target's resources to `<Package>_<Target>.resources` beside the library.
    static var stringsFolder: String? { get }

    /// Creates the module. Do no work here: the host may create a module only to check it.
    init()

    /// Registers the module's routes and services. Called once, in dependency order.
    ///
    /// - Throws: Any error; the host marks the module failed and withdraws its registrations.
    func register(_ registry: ModuleRegistry, configuration: Configuration) throws

    /// Starts the module after its required routes are registered and started.
    ///
    /// - Throws: Any error; the host marks the module failed and skips its dependents.
    func start(_ context: ModuleContext) throws

    /// Stops the module; called in reverse start order at exit.
    func stop()

    /// Commands served as `modhost <module> <command> …` while the module is active.
    func commands(_ context: ModuleContext) -> [ModuleCommand]

    /// Entries for the app's Home screen while the module is active.
    @MainActor func homeEntries(_ context: ModuleContext) -> [HomeEntry]

    /// Checks, cheaply, the resources the configuration names: a file that exists and parses,
    /// a key that is set. `modhost check` calls it after ``register(_:configuration:)``, in a
    /// child process with a throwaway data folder, under the same time limit; a start never
    /// does. Never reach the network here, nor change anything.
    ///
    /// - Returns: One problem per resource, naming its key, the value and what is wrong
    ///   (`config.catalog '/srv/photos.json' does not exist`); none by default.
    /// - Since: SDK 1.2.0.
    func checkResources() -> [String]
}

extension Module {
    public static var provides: [RouteKey] { [] }
    public static var requires: [RouteKey] { [] }
    public static var uses: [RouteKey] { [] }
    public static var stringsFolder: String? { nil }
    public func start(_ context: ModuleContext) throws {}
    public func stop() {}
    public func commands(_ context: ModuleContext) -> [ModuleCommand] { [] }
    @MainActor public func homeEntries(_ context: ModuleContext) -> [HomeEntry] { [] }
    public func checkResources() -> [String] { [] }
}

/// The configuration of a module that takes none: only an empty or absent `config` decodes.
public struct NoConfiguration: Decodable, Sendable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let keys = container.allKeys.map(\.stringValue).sorted()
        if !keys.isEmpty { throw ConfigurationError(problems: keys.map { "config.\($0) is not a setting; this module takes none" }) }
    }
}

/// A coding key for any string, used to list the keys of an object.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
