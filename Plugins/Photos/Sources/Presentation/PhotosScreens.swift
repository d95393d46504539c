import Contracts
import FoundationEssentials
import ModuleKit
import PhotosDomain

/// Photos' first screen: search, photos of a saved place (only while Geo is active), back.
final class PhotosMenuScreen: Screen {
    let viewModel: PhotoViewModel
    let context: ModuleContext
    let perPage: Int

    init(viewModel: PhotoViewModel, context: ModuleContext, perPage: Int) {
        self.viewModel = viewModel
        self.context = context
        self.perPage = perPage
    }

    /// Photos in the language in force, for the breadcrumb of the screens above.
    var title: String? { context.strings[.menuTitle] }

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let geo = context.resolver.ifAvailable((any GeoRoute).self)
        // Search is always 1 and a place 2, whether Geo is on or off.
        let choice = ui.menu(
            strings[.menuTitle], [strings[.menuSearch]] + (geo == nil ? [] : [strings[.menuPlace]]), numbers: geo == nil ? [1] : [1, 2])
        switch choice {
        case .item(0):
            // A query too long is told and asked again, not a trip back to this menu.
            while true {
                guard let text = ui.ask(strings[.fieldQuery]) else { return .quit }
                guard !text.trimmingSpaces().isEmpty else { return .stay }
                guard text.count <= SearchPhotos.maximumQueryLength else {
                    ui.error(PhotoError.queryTooLong(limit: SearchPhotos.maximumQueryLength).message(strings))
                    continue
                }
                return results(for: text, ui)
            }
        case .item(_):
            guard let geo else { return .stay }
            let navigator = context.navigator
            let (viewModel, strings, perPage) = (self.viewModel, context.strings, self.perPage)
            // On the main actor, as the picker calls back: the compiler checks it.
            geo.presentCityPicker { city in
                guard let city else { return }
                navigator.present(ResultsScreen(viewModel: viewModel, strings: strings, query: city.city, perPage: perPage))
            }
            return .stay
        case .shortcut, .back: return .pop
        case .quit: return .quit
        @unknown default: return .stay
        }
    }

    private func results(for text: String, _ ui: TerminalUI) -> Navigation {
        .push(ResultsScreen(viewModel: viewModel, strings: context.strings, query: text, perPage: perPage))
    }
}

/// One page of results: the photos, next and previous, back.
final class ResultsScreen: Screen {
    let viewModel: PhotoViewModel
    let strings: ModuleStrings
    let query: String
    let perPage: Int
    private var page = 1

    init(viewModel: PhotoViewModel, strings: ModuleStrings, query: String, perPage: Int) {
        self.viewModel = viewModel
        self.strings = strings
        self.query = query
        self.perPage = perPage
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let result: PhotoResult
        do {
            result = try viewModel.search(query, page: page, perPage: perPage)
        } catch {
            ui.error(error.message(strings))
            return .pop
        }
        var details: [String] = []
        if result.hits.isEmpty {
            details.append(strings[.resultsEmpty])
        } else {
            details.append(
                strings.plural(.resultsSummary, count: result.totalHits, "\(page)", "\(viewModel.pageCount)", "\(result.totalHits)"))
        }
        if let attribution = result.attribution { details.append(strings.format(.attribution, attribution.name, attribution.link)) }
        // Photos are numbered across pages (page 2 of 20 starts at 21); next and previous are
        // letters, so no number moves.
        var shortcuts: [MenuShortcut] = []
        if viewModel.hasNextPage { shortcuts.append(MenuShortcut(key: "n", label: strings[.resultsNext])) }
        if viewModel.hasPreviousPage { shortcuts.append(MenuShortcut(key: "p", label: strings[.resultsPrevious])) }
        let title = strings.format(.resultsTitle, query.trimmingSpaces())
        let first = (page - 1) * perPage + 1
        let numbers = result.hits.indices.map { first + $0 }
        switch ui.menu(
            title, result.hits.map { "\($0.tags) — \($0.user) (#\($0.id))" }, details: details, numbers: numbers, shortcuts: shortcuts)
        {
        case .item(let index): return .push(DetailsScreen(viewModel: viewModel, strings: strings, hit: result.hits[index]))
        case .shortcut("n"): page += 1
        case .shortcut(_): page -= 1
        case .back: return .pop
        case .quit: return .quit
        @unknown default: return .pop
        }
        return .stay
    }
}

/// A photo's details and its download.
final class DetailsScreen: Screen {
    let viewModel: PhotoViewModel
    let strings: ModuleStrings
    let hit: Hit

    init(viewModel: PhotoViewModel, strings: ModuleStrings, hit: Hit) {
        self.viewModel = viewModel
        self.strings = strings
        self.hit = hit
    }

    func show(_ ui: TerminalUI) -> Navigation {
        switch ui.menu(
            strings.format(.detailsTitle, "\(hit.id)"), [strings[.detailsDownload]],
            details: PhotoText.details(hit, strings, heading: false))
        {
        case .item: break
        case .shortcut, .back: return .pop
        case .quit: return .quit
        @unknown default: return .pop
        }
        guard let answer = ui.ask(strings[.fieldFolder]) else { return .quit }
        let trimmed = answer.trimmingSpaces()
        guard !trimmed.isEmpty else {
            ui.notice(strings[.downloadCancelled])
            return .stay
        }
        let folder = trimmed == "." ? FileManager.default.currentDirectoryPath : trimmed
        var (replacing, creating) = (false, false)
        // Asks before it creates a folder or replaces a file, then tries again.
        while true {
            do {
                let path = try viewModel.download(hit, to: folder, replacing: replacing, creatingFolder: creating)
                ui.success(strings.format(.downloaded, path))
            } catch .folderMissing(let missing) where !creating {
                guard ui.confirm(strings[.confirmCreateTitle], strings.format(.confirmCreateMessage, missing)) else {
                    ui.notice(strings[.downloadCancelled])
                    return .stay
                }
                creating = true
                continue
            } catch .fileExists(let existing) where !replacing {
                guard ui.confirm(strings[.confirmReplaceTitle], strings.format(.confirmReplaceMessage, existing)) else {
                    ui.notice(strings[.downloadCancelled])
                    return .stay
                }
                replacing = true
                continue
            } catch {
                ui.error(error.message(strings))
            }
            return .stay
        }
    }
}

/// How a photo reads as text, for screens and `photos show`.
enum PhotoText {
    /// The details; `heading` is the first line where no title names the photo (`photos show`:
    /// `#104 photo`), else its type (`Type: photo`, under the screen's title "Photo #104").
    static func details(_ hit: Hit, _ strings: ModuleStrings, heading: Bool = true) -> [String] {
        let type = strings[StringKey("type." + hit.type)]
        return [
            heading ? "#\(hit.id) \(type)" : strings.format(.detailType, type),
            strings.format(.detailTags, hit.tags),
            strings.format(.detailSize, "\(hit.imageWidth)", "\(hit.imageHeight)", size(hit.imageSize, strings)),
            strings.format(.detailBy, hit.user, "\(hit.userID)"),
            [
                (StringKey.statViews, hit.views), (.statDownloads, hit.downloads), (.statLikes, hit.likes), (.statComments, hit.comments),
                (.statCollections, hit.collections),
            ].map { strings.plural($0, count: $1, "\($1)") }.joined(separator: ", "),
            strings.format(.detailPage, hit.pageURL),
        ]
    }

    /// Bytes under a kilobyte (a tiny image is not "0 KB"), else whole kilobytes, rounded up.
    static func size(_ bytes: Int, _ strings: ModuleStrings) -> String {
        bytes < 1024 ? strings.plural(.sizeBytes, count: bytes, "\(bytes)") : strings.format(.sizeKB, "\((bytes + 1023) / 1024)")
    }
}
