import Contracts
import Foundation
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

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let geo = context.resolver.ifAvailable((any GeoRoute).self)
        var options = [strings[.menuSearch]]
        if geo != nil { options.append(strings[.menuPlace]) }
        options.append(strings[.menuBack])
        guard let choice = ui.menu(strings[.menuTitle], options) else { return .quit }
        if choice == 0 {
            guard let text = ui.ask(strings[.fieldQuery]) else { return .quit }
            return results(for: text, ui)
        }
        if let geo, choice == 1 {
            let navigator = context.navigator
            let (viewModel, strings, perPage) = (self.viewModel, context.strings, self.perPage)
            // On the main actor, as the picker calls back: the compiler checks it.
            geo.presentCityPicker { city in
                guard let city else { return }
                navigator.present(ResultsScreen(viewModel: viewModel, strings: strings, query: city.city, perPage: perPage))
            }
            return .stay
        }
        return .pop
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
        ui.title(strings.format(.resultsTitle, query.trimmingCharacters(in: .whitespaces)))
        if result.hits.isEmpty {
            ui.print(strings[.resultsEmpty])
        } else {
            ui.print(strings.format(.resultsSummary, "\(page)", "\(viewModel.pageCount)", "\(result.totalHits)"))
        }
        if let attribution = result.attribution { ui.print(strings.format(.attribution, attribution.name, attribution.link)) }
        var options = result.hits.map { "\($0.tags) — \($0.user) (#\($0.id))" }
        let next = viewModel.hasNextPage ? options.count : nil
        if next != nil { options.append(strings[.resultsNext]) }
        let previous = viewModel.hasPreviousPage ? options.count : nil
        if previous != nil { options.append(strings[.resultsPrevious]) }
        options.append(strings[.menuBack])
        guard let choice = ui.menu(strings[.menuTitle], options) else { return .quit }
        if choice < result.hits.count { return .push(DetailsScreen(viewModel: viewModel, strings: strings, hit: result.hits[choice])) }
        if choice == next { page += 1 } else if choice == previous { page -= 1 } else { return .pop }
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
        for line in PhotoText.details(hit, strings) { ui.print(line) }
        guard let choice = ui.menu(strings.format(.detailsTitle, "\(hit.id)"), [strings[.detailsDownload], strings[.menuBack]]) else {
            return .quit
        }
        guard choice == 0 else { return .pop }
        guard let answer = ui.ask(strings[.fieldFolder]) else { return .quit }
        let folder = answer.isEmpty ? FileManager.default.currentDirectoryPath : answer
        var (replacing, creating) = (false, false)
        // Asks before it creates a folder or replaces a file, then tries again.
        while true {
            do {
                let path = try viewModel.download(hit, to: folder, replacing: replacing, creatingFolder: creating)
                ui.success(strings.format(.downloaded, path))
            } catch .folderMissing(let missing) where !creating {
                guard ui.confirm(strings[.confirmCreateTitle], strings.format(.confirmCreateMessage, missing)) else { return .stay }
                creating = true
                continue
            } catch .fileExists(let existing) where !replacing {
                guard ui.confirm(strings[.confirmReplaceTitle], strings.format(.confirmReplaceMessage, existing)) else { return .stay }
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
    static func details(_ hit: Hit, _ strings: ModuleStrings) -> [String] {
        [
            "#\(hit.id) \(hit.type)",
            strings.format(.detailTags, hit.tags),
            strings.format(.detailSize, "\(hit.imageWidth)", "\(hit.imageHeight)", "\(hit.imageSize / 1024)"),
            strings.format(.detailBy, hit.user, "\(hit.userID)"),
            strings.format(.detailStats, "\(hit.views)", "\(hit.downloads)", "\(hit.likes)", "\(hit.comments)", "\(hit.collections)"),
            strings.format(.detailPage, hit.pageURL),
        ]
    }
}
