import Contracts
import FoundationEssentials
import ModuleKit

/// Settings' logic: the contributed settings, their stored values, and the app's language.
public final class SettingsService: SettingsRoute {
    public let registry = SettingsRegistry()
    let store: SettingsStore
    let locale: LocaleSetting

    /// Settings' own section name and the language key (`settings.language`).
    public static let module = "Settings"
    public static let languageKey = "language"
    /// The app's language, a shipped locale's code.
    public static let language = SettingKey<String>(languageKey, module: module)
    /// Where the environment's language at the time of the choice is kept (not a setting).
    static let languageBase = SettingName(module: module, key: "language.environment")

    /// The process's environment, for the language it names.
    let environment: [String: String]

    public init(store: SettingsStore, locale: LocaleSetting, environment: [String: String] = ProcessEnvironment.variables) {
        self.store = store
        self.locale = locale
        self.environment = environment
    }

    public func register(_ definitions: [SettingDefinition], module: String) {
        registry.register(definitions, module: module)
    }

    public func value(of key: String, module: String) -> SettingValue? {
        value(of: SettingName(module: module, key: key))
    }

    public func value(of name: SettingName) -> SettingValue? {
        guard let (_, definition) = registry.definition(name) else { return nil }
        if let stored = store.value(of: name), SettingsRegistry.fits(stored, definition.kind) { return stored }
        return definition.defaultValue
    }

    /// The stored value of `key` when it no longer fits its setting (a choice removed, a
    /// range narrowed, a free text now a choice): `value(of:)` gives the default instead, and
    /// the screen and `settings list` say so, so the value is not silently lost from view.
    public func unfitStoredValue(of name: SettingName) -> SettingValue? {
        guard let (_, definition) = registry.definition(name), let stored = store.value(of: name),
            !SettingsRegistry.fits(stored, definition.kind)
        else { return nil }
        return stored
    }

    /// The setting a person named (`photos.perPage`; `photos.perpage` too, when no other
    /// setting differs from it only in case), or why none is.
    public func setting(named text: String) throws(SettingsError) -> (name: SettingName, definition: SettingDefinition) {
        if let name = SettingName(text: text), let setting = registry.definition(name) { return setting }
        let caseless = registry.entries.filter { $0.name.text.lowercased() == text.lowercased() }
        guard caseless.count == 1, let setting = caseless.first else {
            throw SettingsError.unknownKey(text, suggestion: Self.nearest(text, registry.names))
        }
        return setting
    }

    /// Validates `text` for the setting `name`, stores it, and applies the language at once.
    public func set(_ name: SettingName, to text: String) throws(SettingsError) -> SettingValue {
        guard let (name, definition) = registry.definition(name) else {
            throw SettingsError.unknownKey(name.text, suggestion: Self.nearest(name.text, registry.names))
        }
        let value = try Self.read(text, for: definition).get()
        do {
            try store.set(value, for: name)
        } catch {
            throw SettingsError.storage("\(error)")
        }
        if name == Self.language.name, case .text(let code) = value {
            locale.set(code)
            // The environment's language when this choice was made: a later run whose
            // environment names another one was asked for it explicitly (see applyStoredLanguage).
            let base = LocaleSetting.language(in: environment)
            try? store.set(.text(base), for: Self.languageBase)
            store.rememberLanguage((code, base))
        }
        return value
    }

    /// `text` as a value of `definition`: its module's reading of a choice first (a country's
    /// name in any language becomes its code), then the kind's own checks.
    static func read(_ text: String, for definition: SettingDefinition) -> Result<SettingValue, SettingsError> {
        guard let interpret = definition.interpret else { return SettingsRegistry.parse(text, as: definition.kind) }
        switch interpret(text.trimmingSpaces()) {
        case .success(let code): return SettingsRegistry.parse(code, as: definition.kind)
        case .failure(let refusal): return .failure(.refused(refusal.message))
        }
    }

    /// The stored language, applied to the whole app (every module's strings switch) — unless
    /// this run asked for another: `LC_ALL=C` (stable English for scripts), or an environment
    /// whose language differs from the one the choice was made under (`LANG=de modhost`).
    func applyStoredLanguage() {
        // From the language file beside the database: no SQLite at start (see storedLanguage).
        let stored = store.storedLanguage(Self.language.name, base: Self.languageBase)
        guard let code = stored.code, ModuleStrings.shippedLocales.contains(code) else { return }
        if let all = environment["LC_ALL"], ["C", "POSIX"].contains(String(all.prefix { $0 != "." })) { return }
        if let base = stored.base, base != LocaleSetting.language(in: environment) { return }
        locale.set(code)
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
