import Dispatch
import FoundationEssentials
import Synchronization

/// The locale every module's strings use: set by Settings when it is active, else taken from
/// the environment (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English. Shared by the whole
/// process, so a change switches every module at once.
public final class LocaleSetting: Sendable {
    private let code: Mutex<String>

    /// Starts from the environment: the language part of `LC_ALL`, `LC_MESSAGES` or `LANG`
    /// (`fr_FR.UTF-8` → `fr`) when it is a shipped locale, else English.
    public init(environment: [String: String] = ProcessEnvironment.variables) {
        code = Mutex(Self.language(in: environment))
    }

    /// The current locale code (`en`, `fr`, …).
    public var current: String { code.withLock { $0 } }

    /// Switches to `locale` if it is shipped.
    ///
    /// - Returns: `false` (and changes nothing) for a locale no module ships.
    @discardableResult
    public func set(_ locale: String) -> Bool {
        guard ModuleStrings.shippedLocales.contains(locale) else { return false }
        code.withLock { $0 = locale }
        return true
    }

    /// The shipped language an environment names (`LANG=fr_FR.UTF-8` → `fr`), else English.
    public static func language(in environment: [String: String]) -> String {
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let language = String(value.prefix { $0.isLetter }).lowercased()
            if language == ModuleStrings.pseudoLocale { return language }
            return ModuleStrings.shippedLocales.contains(language) ? language : ModuleStrings.fallbackLocale
        }
        return ModuleStrings.fallbackLocale
    }
}
