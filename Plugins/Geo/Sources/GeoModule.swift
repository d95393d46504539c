import Contracts
import ModuleKit

/// Geo (built the SILVER way, docs/ARCHITECTURE.md): countries and cities, a reusable input unit, `GeoRoute`.
///
/// Service locator: the storage and the region catalog are registered here and injected into
/// the interactors. Interactor: ``PlacesInteractor``. Router: ``PlacesRouter`` and
/// ``InputRouter``. View: ``PlacesView`` and ``InputView``. Entity: ``City`` and ``Country``.
public final class GeoModule: Module {
    // Name, version, routes and resource folders: generated from module.manifest by the build.

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        let storage = try SQLiteGeoStorage(storage: registry.context.storage)
        try registry.service((any GeoStorageService).self, .singleton(storage))
        try registry.service(RegionCatalog.self, .lazySingleton { RegionCatalog() })
        try registry.route((any GeoRoute).self, .singleton(GeoRouter(context: registry.context)))
    }

    /// Contributes "default country" to Settings, when Settings is active: a choice of country
    /// codes, typed as a name in any language the catalog knows (or a code) and shown as the
    /// country's name in the current language.
    public func start(_ context: ModuleContext) throws {
        guard let settings = try context.resolver.optional((any SettingsRoute).self) else { return }
        let (strings, locale) = (context.strings, context.locale)
        let regions = try context.resolver.resolve(RegionCatalog.self)
        settings.register(
            [
                SettingDefinition(
                    Self.defaultCountrySetting, title: { strings[.settingDefaultCountry] }, choices: [""] + regions.codes,
                    defaultValue: "", display: { $0.isEmpty ? "" : regions.name(of: $0, locale: locale.current) },
                    interpret: { text in
                        if text.isEmpty { return .success("") }
                        if let country = regions.country(matching: text, locale: locale.current) { return .success(country.code) }
                        let error = GeoError.unknownCountry(text, suggestions: regions.suggestions(for: text, locale: locale.current))
                        return .failure(SettingRefusal(error.message(strings)))
                    })
            ],
            module: Self.name)
    }

    /// The country new cities go to when none is given: a country code, or "" for none.
    static let defaultCountrySetting = SettingKey<String>("defaultCountry", module: name)

    /// Settings' `geo.defaultCountry`, when set.
    static func defaultCountry(_ context: ModuleContext) -> String? {
        guard let country = context.resolver.ifAvailable((any SettingsRoute).self)?.value(defaultCountrySetting), !country.isEmpty
        else { return nil }
        return country
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        GeoCommands(context: context).all
    }

    @MainActor public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        [
            HomeEntry(title: context.strings[.placesEntry]) {
                do {
                    return try PlacesUnitAssembly(context: context).view
                } catch {
                    return ErrorScreen(message: "\(error)")
                }
            }
        ]
    }
}
