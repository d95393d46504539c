import Contracts
import ModuleKit

/// Settings: profile, language, the settings other
/// modules contribute through `SettingsRoute`, About, Check, Help, Log Out.
public final class SettingsModule: Module {
    // Name, version, routes and resource folders: generated from module.manifest by the build.

    private var service: SettingsService?

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        let context = registry.context
        let service = SettingsService(store: try SettingsStore(storage: context.storage), locale: context.locale)
        let strings = context.strings
        service.register(
            [
                SettingDefinition(
                    SettingsService.language, title: { strings[.language] }, choices: ModuleStrings.shippedLocales,
                    defaultValue: context.locale.current, display: { strings[StringKey("language." + $0)] })
            ], module: SettingsService.module)
        // Before any module starts: every module's strings and every command see the choice.
        service.applyStoredLanguage()
        self.service = service
        try registry.route((any SettingsRoute).self, .singleton(service))
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        guard let service else { return [] }
        return SettingsCommands(service: service, context: context).all
    }

    @MainActor public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        guard let service else { return [] }
        return [HomeEntry(title: context.strings[.homeEntry]) { SettingsScreen(service: service, context: context) }]
    }
}
