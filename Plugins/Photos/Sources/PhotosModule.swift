import Contracts
import Foundation
import ModuleKit

/// Photos (seeds 001 and 002, Clean Architecture): search a Pixabay-compatible API or the
/// embedded catalog page by page, show details, download through the image cache.
/// Domain/ holds entities and use cases; Data/ the sources, caches and repository;
/// Presentation/ the view model, screens and commands.
public final class PhotosModule: Module {
    public typealias Configuration = PhotosConfiguration

    public static let name = "Photos"
    public static let version = "1.0.0"
    public static let uses: [RouteKey] = [.route((any GeoRoute).self)]
    public static let stringsFolder: String? = "ModuleHost_PhotosFeature.resources/Strings"
    /// The shipped catalog, relative to the module's library.
    static let catalogFile = "ModuleHost_PhotosFeature.resources/Catalog/catalog.json"

    private var perPage = 20

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: PhotosConfiguration) throws {
        let context = registry.context
        perPage = configuration.perPage ?? 20
        let http = HTTPClient()
        let source: any PhotoDataSource
        if configuration.source == "pixabay" {
            let key = configuration.apiKey ?? ProcessInfo.processInfo.environment["PIXABAY_API_KEY"] ?? ""
            guard !key.isEmpty else {
                throw ConfigurationError(
                    message: "config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY")
            }
            guard let url = configuration.apiURL(for: context.environment) else {
                throw ConfigurationError(message: "config.baseURL is not a URL")
            }
            source = PixabayDataSource(
                baseURL: url, apiKey: key, http: http,
                cache: ResponseCache(folder: try context.storage.folderPath(named: "responses")))
        } else {
            source = CatalogDataSource(path: configuration.catalog ?? Self.shippedCatalog(context))
        }
        let images = ImageCache(folder: try context.storage.folderPath(named: "images"), fetch: PhotoRepository.fetcher(http: http))
        let repository = PhotoRepository(source: source, images: images)
        try registry.service((any SearchPhotosUseCase).self, .singleton(repository))
        try registry.service((any GetPhotoUseCase).self, .singleton(repository))
        try registry.service((any DownloadPhotoUseCase).self, .singleton(repository))
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        PhotosCommands(context: context, perPage: perPage).all
    }

    public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        let perPage = self.perPage
        return [
            HomeEntry(title: context.strings[.homeEntry]) {
                do {
                    return PhotosMenuScreen(viewModel: try PhotoViewModel(resolver: context.resolver), context: context, perPage: perPage)
                } catch {
                    return MessageScreen(message: "\(error)")
                }
            }
        ]
    }

    /// The catalog that ships beside the module's library.
    static func shippedCatalog(_ context: ModuleContext) -> String {
        context.libraryFolder + "/" + catalogFile
    }
}

/// Shows a message and goes back.
final class MessageScreen: Screen {
    let message: String
    init(message: String) { self.message = message }
    func show(_ ui: TerminalUI) -> Navigation {
        ui.error(message)
        return .pop
    }
}
