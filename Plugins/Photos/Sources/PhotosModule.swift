import Contracts
import FoundationEssentials
import ModuleKit
import PhotosDomain

/// Photos (Clean Architecture, docs/ARCHITECTURE.md): search a Pixabay-compatible API or the
/// embedded catalog page by page, show details, download through the image cache.
/// Domain/ holds entities and use cases; Data/ the sources, caches and repository;
/// Presentation/ the view model, screens and commands.
public final class PhotosModule: Module {
    public typealias Configuration = PhotosConfiguration

    // Name, version, routes and resource folders: generated from module.manifest by the build.
    /// The shipped catalog, relative to the module's library.
    static let catalogFile = resourcesFolder + "/Catalog/catalog.json"

    private var configuration = PhotosConfiguration()
    private var perPage = 20
    private var catalog: CatalogDataSource?
    /// For what `checkResources` says, in the person's language.
    private var strings: ModuleStrings?

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: PhotosConfiguration) throws {
        let context = registry.context
        strings = context.strings
        perPage = configuration.perPage ?? 20
        self.configuration = configuration
        let http = HTTPClient()
        let catalog = CatalogDataSource(path: configuration.catalog ?? Self.shippedCatalog(context))
        self.catalog = catalog
        var sources: [String: any PhotoDataSource] = ["catalog": catalog]
        let key = configuration.apiKey ?? ProcessEnvironment.value("PIXABAY_API_KEY") ?? ""
        if configuration.source == "pixabay", key.isEmpty {
            throw ConfigurationError(message: "config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY")
        }
        if !key.isEmpty, let url = configuration.apiURL(for: context.environment) {
            sources["pixabay"] = PixabayDataSource(
                baseURL: url, apiKey: key, http: http,
                cache: ResponseCache(folder: try context.storage.files(in: "responses")))
        }
        let configured = configuration.source ?? "catalog"
        let resolver = context.resolver
        let chosen: @Sendable () -> String = {
            resolver.ifAvailable((any SettingsRoute).self)?.value(Setting.source) ?? configured
        }
        let images = ImageCache(folder: try context.storage.files(in: "images"), fetch: CachedImages.fetcher(http: http))
        let locale = context.locale
        let preferences: @Sendable () -> SearchPreferences = {
            let safeSearch = resolver.ifAvailable((any SettingsRoute).self)?.value(Setting.safeSearch) ?? true
            return SearchPreferences(language: locale.current, safeSearch: safeSearch)
        }
        // Data implements the Domain's ports; the use cases hold the rules.
        let source = PhotoSources(sources: sources, chosenSource: chosen)
        try registry.service((any SearchPhotosUseCase).self, .singleton(SearchPhotos(source: source, preferences: preferences)))
        try registry.service((any GetPhotoUseCase).self, .singleton(GetPhoto(source: source)))
        try registry.service((any DownloadPhotoUseCase).self, .singleton(DownloadPhoto(images: CachedImages(cache: images))))
    }

    /// For `modhost check`: the catalog can be read and is a page of photos (the API's key is
    /// checked in register; the API itself is not reached).
    public func checkResources() -> [String] {
        guard let problem = catalog?.problem(), let strings else { return [] }
        switch problem {
        case .missing(let path):
            return [strings.format(configuration.catalog == nil ? .checkShippedCatalogMissing : .checkCatalogMissing, path)]
        case .unusable(let error): return [error.message(strings)]
        }
    }

    /// Contributes "photos per page", "data source" and "safe search" to Settings, when
    /// Settings is active.
    public func start(_ context: ModuleContext) throws {
        guard let settings = try context.resolver.optional((any SettingsRoute).self) else { return }
        let strings = context.strings
        settings.register(
            [
                SettingDefinition(
                    Setting.perPage, title: { strings[.settingPerPage] }, range: SearchPhotos.perPageRange, defaultValue: perPage),
                SettingDefinition(
                    Setting.source, title: { strings[.settingSource] }, choices: ["catalog", "pixabay"],
                    defaultValue: configuration.source ?? "catalog", display: { strings[StringKey("source." + $0)] }),
                SettingDefinition(Setting.safeSearch, title: { strings[.settingSafeSearch] }, defaultValue: true),
            ], module: Self.name)
    }

    /// Photos' settings, each declared once with its type.
    enum Setting {
        static let perPage = SettingKey<Int>("perPage", module: PhotosModule.name)
        static let source = SettingKey<String>("source", module: PhotosModule.name)
        static let safeSearch = SettingKey<Bool>("safeSearch", module: PhotosModule.name)
    }

    /// Hits per page: Settings' `photos.perPage`, else the config's.
    static func perPage(_ context: ModuleContext, configured: Int) -> Int {
        context.resolver.ifAvailable((any SettingsRoute).self)?.value(Setting.perPage) ?? configured
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        PhotosCommands(context: context, perPage: Self.perPage(context, configured: perPage)).all
    }

    @MainActor public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        let perPage = Self.perPage(context, configured: self.perPage)
        return [
            HomeEntry(title: context.strings[.homeEntry]) {
                do {
                    return PhotosMenuScreen(viewModel: try PhotoViewModel(resolver: context.resolver), context: context, perPage: perPage)
                } catch {
                    return ErrorScreen(message: "\(error)")
                }
            }
        ]
    }

    /// The catalog that ships beside the module's library.
    static func shippedCatalog(_ context: ModuleContext) -> String {
        context.libraryFolder + "/" + catalogFile
    }
}
