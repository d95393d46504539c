import Contracts
@_spi(Host) import ModuleKit
import Synchronization

/// Settings as the host serves it to an isolated module's process: the module registers
/// under its own name only, and a process started again after a crash takes over the settings
/// its first process registered.
///
/// Settings keeps the first registration of each key, whose closures (title, display,
/// interpret) call the process that registered it. The host registers, once per key, a
/// definition whose closures call whichever of the module's processes registered the key
/// last (``IsolatedSettings``), so that a restarted module's settings are asked of the running
/// process, not the gone one. Kind and default stay those of the first registration.
struct SettingsServedToProcess: SettingsRoute {
    /// The module whose process calls: the host's own word, never the caller's.
    let module: String
    let settings: any SettingsRoute
    let kept: IsolatedSettings
    let logger: Logger

    func register(_ definitions: [SettingDefinition], module claimed: String) {
        guard claimed == module else {
            // The logger shows control characters as `?`; the claim is the caller's, so cut short.
            logger.warn(
                "module '\(module)' registered settings as module '\(claimed.prefix(64))': refused (a module registers only its own)")
            return
        }
        let new = kept.take(definitions, of: module)
        if !new.isEmpty { settings.register(new, module: module) }
    }

    func value(of key: String, module: String) -> SettingValue? {
        settings.value(of: key, module: module)
    }
}

/// The settings isolated modules registered, by module and key: each the definition its
/// latest process gave. Lives as long as the runtime, across a module's restarts.
package final class IsolatedSettings: Sendable {
    private let latest = Mutex<[String: [String: SettingDefinition]]>([:])

    /// Keeps `definitions` as `module`'s latest; returns those of keys not registered before,
    /// as definitions that call the latest (the ones to register with Settings).
    func take(_ definitions: [SettingDefinition], of module: String) -> [SettingDefinition] {
        let new = latest.withLock { latest in
            var own = latest[module] ?? [:]
            defer { latest[module] = own }
            return definitions.filter { definition in
                defer { own[definition.key] = definition }
                return own[definition.key] == nil
            }
        }
        return new.map { definition in following(definition, of: module) }
    }

    /// `first`'s key, kind and default, with closures that call `module`'s latest definition
    /// of the key.
    private func following(_ first: SettingDefinition, of module: String) -> SettingDefinition {
        let key = first.key
        let current: @Sendable () -> SettingDefinition = { [self] in
            latest.withLock { $0[module]?[key] } ?? first
        }
        let interpret: (@Sendable (String) -> Result<String, SettingRefusal>)? =
            first.interpret == nil ? nil : { @Sendable text in current().interpret?(text) ?? .success(text) }
        return SettingDefinition(
            key: key, title: { current().title() }, kind: first.kind, defaultValue: first.defaultValue,
            display: { current().display($0) }, interpret: interpret)
    }
}
