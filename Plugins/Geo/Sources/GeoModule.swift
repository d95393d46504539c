import Contracts
import ModuleKit

/// Geo (seed 003, SILVER): countries and cities, a reusable input module, `GeoRoute`.
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

    /// Contributes "default country" to Settings, when Settings is active.
    public func start(_ context: ModuleContext) throws {
        guard let settings = try context.resolver.optional((any SettingsRoute).self) else { return }
        let strings = context.strings
        settings.register(
            [
                SettingDefinition(
                    key: "defaultCountry", title: { strings[.settingDefaultCountry] }, kind: .text(maxLength: 60), defaultValue: .text(""))
            ],
            module: Self.name)
    }

    /// Settings' `geo.defaultCountry`, when set.
    static func defaultCountry(_ context: ModuleContext) -> String? {
        guard
            case .text(let country)? = context.resolver.ifAvailable((any SettingsRoute).self)?.value(
                of: "defaultCountry", module: name),
            !country.isEmpty
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
                    return try PlacesModuleAssembly(context: context).view
                } catch {
                    return ErrorScreen(message: "\(error)")
                }
            }
        ]
    }
}
