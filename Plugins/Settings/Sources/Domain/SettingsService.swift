import Contracts
import ModuleKit

/// Settings' logic: the contributed settings, their stored values, and the app's language.
public final class SettingsService: SettingsRoute {
    public let registry = SettingsRegistry()
    let store: SettingsStore
    let locale: LocaleSetting

    /// Settings' own section name and the language key (`settings.language`).
    public static let module = "Settings"
    public static let languageKey = "language"

    public init(store: SettingsStore, locale: LocaleSetting) {
        self.store = store
        self.locale = locale
    }

    public func register(_ definitions: [SettingDefinition], module: String) {
        registry.register(definitions, module: module)
    }

    public func value(of key: String, module: String) -> SettingValue? {
        guard
            let definition = registry.all.first(where: { $0.module.lowercased() == module.lowercased() })?.definitions.first(where: {
                $0.key == key
            })
        else { return nil }
        if let stored = store.value(module: module, key: key), SettingsRegistry.fits(stored, definition.kind) { return stored }
        return definition.defaultValue
    }

    /// Validates `text` for the setting `fullKey` (`photos.perPage`), stores it, and applies
    /// the language at once.
    public func set(_ fullKey: String, to text: String) throws(SettingsError) -> SettingValue {
        guard let (module, definition) = registry.definition(fullKey: fullKey) else {
            throw SettingsError.unknownKey(fullKey, suggestion: Self.nearest(fullKey, registry.fullKeys))
        }
        let value = try SettingsRegistry.parse(text, as: definition.kind).get()
        do {
            try store.set(value, module: module, key: definition.key)
        } catch {
            throw SettingsError.storage("\(error)")
        }
        if module == Self.module, definition.key == Self.languageKey, case .text(let code) = value { locale.set(code) }
        return value
    }

    /// The stored language, applied to the whole app (every module's strings switch).
    func applyStoredLanguage() {
        if case .text(let code)? = value(of: Self.languageKey, module: Self.module) { locale.set(code) }
    }

    /// The full key meant by `key`: near it by edit distance, or one whose setting name (after
    /// the module's dot) is near it — `language` means `settings.language`.
    static func nearest(_ key: String, _ candidates: [String]) -> String? {
        let lowered = key.lowercased()
        func distance(_ candidate: String) -> Int {
            let full = candidate.lowercased()
            let name = String(full.split(separator: ".").last ?? Substring(full))
            return min(editDistance(lowered, full), lowered.contains(".") ? Int.max : editDistance(lowered, name))
        }
        return candidates.min { distance($0) < distance($1) }.flatMap { distance($0) <= 3 ? $0 : nil }
    }

}
