/// A setting's value.
public enum SettingValue: Sendable, Hashable, Codable {
    case bool(Bool)
    case int(Int)
    case text(String)
}

/// What a setting accepts.
public enum SettingKind: Sendable, Hashable {
    case toggle
    /// One of these values.
    case choice([String])
    /// A whole number in this range.
    case number(ClosedRange<Int>)
    /// Text up to this many characters.
    case text(maxLength: Int)
}

/// A setting a module contributes to the Settings screen and commands.
// modhost: carried by the host — its values cross as values, its closures as a remote object
// the host calls back (HostIsolation's RouteCarried).
public struct SettingDefinition: Sendable {
    /// The key within the module (`perPage`); the setting's whole name, with its module, is a
    /// ``SettingName`` (`photos.perPage`).
    public let key: String
    /// The title, in the current locale each time it is asked.
    public let title: @Sendable () -> String
    public let kind: SettingKind
    public let defaultValue: SettingValue
    /// How a stored choice reads in the current locale (a country code as the country's name).
    public let display: @Sendable (String) -> String
    /// For a choice: reads what a person typed (a name in any language, a code) as one of the
    /// choices, or says why it is not one, in the current locale. `nil`: the choice itself,
    /// in any case.
    public let interpret: (@Sendable (String) -> Result<String, SettingRefusal>)?

    public init(
        key: String, title: @escaping @Sendable () -> String, kind: SettingKind, defaultValue: SettingValue,
        display: @escaping @Sendable (String) -> String = { $0 },
        interpret: (@Sendable (String) -> Result<String, SettingRefusal>)? = nil
    ) {
        self.key = key
        self.title = title
        self.kind = kind
        self.defaultValue = defaultValue
        self.display = display
        self.interpret = interpret
    }
}

/// Why a module refused a typed value of its setting, already in the person's language.
public struct SettingRefusal: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// Provided by Settings: modules register their settings and read their values.
///
/// ```swift
/// static let perPage = SettingKey<Int>("perPage", module: "Photos")
/// settings.register([SettingDefinition(perPage, title: { strings[.perPage] }, range: 3...200, defaultValue: 20)],
///                   module: "Photos")
/// let chosen = settings.value(perPage)   // Int?
/// ```
public protocol SettingsRoute: Sendable {
    /// Adds `definitions` to `module`'s section; they live as long as the process.
    func register(_ definitions: [SettingDefinition], module: String)
    /// The stored value of the setting `name`, or its default; `nil` for an unknown setting.
    ///
    /// - Since: SDK 1.7.0. By default, ``value(of:module:)``'s answer: a conformance written
    ///   before 1.7 answers both.
    func value(of name: SettingName) -> SettingValue?
    /// The stored value, or the default; `nil` for an unknown key. Every conformance implements
    /// it (it has no default, so that neither form can call the other for ever); callers ask
    /// with a ``SettingName``.
    func value(of key: String, module: String) -> SettingValue?
}

extension SettingsRoute {
    /// - Since: SDK 1.7.0.
    public func value(of name: SettingName) -> SettingValue? {
        value(of: name.key, module: name.module)
    }
}
