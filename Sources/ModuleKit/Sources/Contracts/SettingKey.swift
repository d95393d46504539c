/// A Swift type a setting can hold: `Bool` (a toggle), `Int` (a number), `String` (a choice or
/// text).
public protocol SettingValueType: Sendable {
    /// The value as Settings stores it.
    var settingValue: SettingValue { get }
    /// The stored value, when it is of this type.
    init?(settingValue: SettingValue)
}

extension Bool: SettingValueType {
    public var settingValue: SettingValue { .bool(self) }
    public init?(settingValue: SettingValue) {
        guard case .bool(let value) = settingValue else { return nil }
        self = value
    }
}

extension Int: SettingValueType {
    public var settingValue: SettingValue { .int(self) }
    public init?(settingValue: SettingValue) {
        guard case .int(let value) = settingValue else { return nil }
        self = value
    }
}

extension String: SettingValueType {
    public var settingValue: SettingValue { .text(self) }
    public init?(settingValue: SettingValue) {
        guard case .text(let value) = settingValue else { return nil }
        self = value
    }
}

/// One module's setting, declared once with the type of its value: the definition it registers
/// and every read of it go through this one value, so a key cannot be misspelt in one place or
/// read as another type.
///
/// ```swift
/// static let perPage = SettingKey<Int>("perPage", module: "Photos")
/// settings.register([SettingDefinition(perPage, title: { strings[.perPage] }, range: 3...200, defaultValue: 20)],
///                   module: "Photos")
/// let chosen = settings.value(perPage)   // Int?
/// ```
public struct SettingKey<Value: SettingValueType>: Sendable, Hashable {
    /// The key within the module (`perPage`).
    public let key: String
    /// The module whose section holds it (`Photos`).
    public let module: String

    public init(_ key: String, module: String) {
        self.key = key
        self.module = module
    }
}

extension SettingsRoute {
    /// The stored value of `setting`, or its default; `nil` when the setting is not registered
    /// (or is stored as another type, which its definition does not allow).
    public func value<Value>(_ setting: SettingKey<Value>) -> Value? {
        value(of: setting.name).flatMap(Value.init(settingValue:))
    }
}

extension SettingDefinition {
    /// A toggle.
    public init(_ setting: SettingKey<Bool>, title: @escaping @Sendable () -> String, defaultValue: Bool) {
        self.init(key: setting.key, title: title, kind: .toggle, defaultValue: .bool(defaultValue))
    }

    /// A whole number in `range`.
    public init(_ setting: SettingKey<Int>, title: @escaping @Sendable () -> String, range: ClosedRange<Int>, defaultValue: Int) {
        self.init(key: setting.key, title: title, kind: .number(range), defaultValue: .int(defaultValue))
    }

    /// One of `choices`, shown through `display` and read from what a person types through
    /// `interpret` (see ``SettingDefinition/interpret``).
    public init(
        _ setting: SettingKey<String>, title: @escaping @Sendable () -> String, choices: [String], defaultValue: String,
        display: @escaping @Sendable (String) -> String = { $0 },
        interpret: (@Sendable (String) -> Result<String, SettingRefusal>)? = nil
    ) {
        self.init(
            key: setting.key, title: title, kind: .choice(choices), defaultValue: .text(defaultValue), display: display,
            interpret: interpret)
    }

    /// Text of at most `maxLength` characters.
    public init(_ setting: SettingKey<String>, title: @escaping @Sendable () -> String, maxLength: Int, defaultValue: String) {
        self.init(key: setting.key, title: title, kind: .text(maxLength: maxLength), defaultValue: .text(defaultValue))
    }
}

/// A setting's whole name: its module and its key within the module. Written and read as
/// `<module>.<key>` with the module in lowercase (`photos.perPage`), by ``text`` and
/// ``init(text:)`` alone; module names compare in any case.
///
/// - Since: SDK 1.7.0.
public struct SettingName: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The module whose section holds the setting (`Photos`).
    public let module: String
    /// The key within the module (`perPage`).
    public let key: String

    public init(module: String, key: String) {
        self.module = module
        self.key = key
    }

    /// `photos.perPage` read back; `nil` without a dot, or with nothing on either side of it.
    public init?(text: String) {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            return nil
        }
        self.init(module: String(text[..<dot]), key: String(text[text.index(after: dot)...]))
    }

    /// `photos.perPage`: as commands show and accept it.
    public var text: String { "\(module.lowercased()).\(key)" }
    public var description: String { text }

    public static func == (left: SettingName, right: SettingName) -> Bool {
        left.key == right.key && left.module.lowercased() == right.module.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(module.lowercased())
        hasher.combine(key)
    }
}

extension SettingKey {
    /// The setting's whole name.
    ///
    /// - Since: SDK 1.7.0.
    public var name: SettingName { SettingName(module: module, key: key) }
}
