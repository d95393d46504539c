import ModuleKit

/// Geo's places list: its public face. Parameters come through the initializer, callbacks
/// through `configure`; the child input routers are kept weakly — their views own them.
@MainActor
public final class PlacesRouter {
    let strings: ModuleStrings
    /// Settings' default country, offered first when adding a city.
    var defaultCountry: () -> String? = { nil }
    /// The open input step, if any (weak: its view owns it), for the memory test.
    private(set) weak var countryInput: InputRouter?

    public init(strings: ModuleStrings) {
        self.strings = strings
    }

    /// The two-step add: the input unit for the country, then again for the city. Nothing
    /// is saved until the second step is done; cancelling either step saves nothing.
    func addCity(with interactor: PlacesInteractor) -> Navigation {
        let strings = self.strings
        let countryStep = InputUnitAssembly(
            title: strings[.addTitle], question: strings[.fieldCountry], cancelHint: strings[.cancelHint],
            suggestions: interactor.countrySuggestions(preferred: defaultCountry()), cancelMessage: strings[.addCancelled])
        countryInput = countryStep.router
        countryStep.router.configure(
            onDone: { [weak self] text in
                do throws(GeoError) {
                    let country = try interactor.country(text)
                    guard let self else { return .proceed(.pop) }
                    return .proceed(.replace(self.cityStep(country: country, interactor: interactor)))
                } catch {
                    return .retry(error.message(strings))
                }
            },
            onCancel: { .pop })
        return .push(countryStep.view)
    }

    private func cityStep(country: Country, interactor: PlacesInteractor) -> any Screen {
        let strings = self.strings
        let step = InputUnitAssembly(
            title: strings.format(.addCityTitle, country.name), question: strings[.fieldCity], cancelHint: strings[.cancelHint],
            cancelMessage: strings[.addCancelled])
        step.router.configure(
            onDone: { text in
                do throws(GeoError) {
                    let added = try interactor.add(country: country.code, city: text)
                    return .done(strings.format(.added, added.name, country.name), .pop)
                } catch {
                    return .retry(error.message(strings))
                }
            },
            onCancel: { .pop })
        return step.view
    }

    /// Rename asks for the new name with the same input unit as add.
    func rename(_ city: City, in country: Country, with interactor: PlacesInteractor) -> Navigation {
        let strings = self.strings
        let step = InputUnitAssembly(
            title: strings.format(.renameTitle, city.name), question: strings[.fieldNewName], cancelHint: strings[.cancelHint],
            cancelMessage: strings[.renameCancelled], initial: city.name)
        step.router.configure(
            onDone: { text in
                do throws(GeoError) {
                    let renamed = try interactor.rename(country: country.code, city: city.name, to: text)
                    return .done(strings.format(.renamed, city.name, renamed.name), .pop)
                } catch {
                    return .retry(error.message(strings))
                }
            },
            onCancel: { .pop })
        return .push(step.view)
    }
}

/// The places list screen (the "V" of SILVER): thin, and owner of its unit — popping it
/// frees the router and the interactor.
public final class PlacesView: Screen {
    let router: PlacesRouter
    let interactor: PlacesInteractor

    init(router: PlacesRouter, interactor: PlacesInteractor) {
        self.router = router
        self.interactor = interactor
    }

    /// Places in the language in force, for the breadcrumb of the screens above.
    public var title: String? { router.strings[.placesTitle] }

    public func show(_ ui: TerminalUI) -> Navigation {
        let strings = router.strings
        var list: [String] = []
        let groups: [CountryGroup]
        do {
            groups = try interactor.groups()
        } catch {
            ui.error(strings.format(.errorStorage, "\(error)"))
            groups = []
        }
        if groups.isEmpty { list.append(strings[.placesEmpty]) }
        for group in groups {
            list.append("\(group.country.name) (\(group.country.code))")
            // A list row, not a menu item: a bullet, never a number (a city named "1" stays a city).
            list += group.cities.map { "  · \($0.name)" }
        }
        let actions = [strings[.actionAdd], strings[.actionRename], strings[.actionDelete]]
        let choice: Int
        switch ui.menu(strings[.placesTitle], actions, details: list) {
        case .item(let index): choice = index
        case .shortcut, .back: return .pop
        case .quit: return .quit
        @unknown default: return .pop
        }
        if choice == 0 { return router.addCity(with: interactor) }
        let cities = groups.flatMap { group in group.cities.map { (group.country, $0) } }
        guard !cities.isEmpty else {
            ui.print(strings[.placesEmpty])
            return .stay
        }
        switch ui.menu(strings[.pickCity], cities.map { "\($0.1.name), \($0.0.name)" }) {
        case .item(let pick):
            let (country, city) = cities[pick]
            return choice == 1 ? router.rename(city, in: country, with: interactor) : delete(city, in: country, ui)
        case .shortcut, .back: return .stay
        case .quit: return .quit
        @unknown default: return .stay
        }
    }

    private func delete(_ city: City, in country: Country, _ ui: TerminalUI) -> Navigation {
        let strings = router.strings
        let confirmed = ui.confirm(strings[.deleteTitle], strings.format(.deleteMessage, city.name, country.name)) {
            do throws(GeoError) {
                let removed = try interactor.remove(country: country.code, city: city.name)
                ui.success(strings.format(.removed, removed.name, country.name))
            } catch {
                ui.error(error.message(strings))
            }
        }
        if !confirmed { ui.notice(strings[.deleteCancelled]) }
        return .stay
    }
}

/// Builds Geo's places unit: the interactor gets its services from the locator.
///
/// - Throws: ``LocatorError`` when a service is missing (a bug in Geo's registration).
@MainActor
public func PlacesUnitAssembly(context: ModuleContext) throws -> SilverUnit<PlacesRouter> {
    let interactor = try PlacesInteractor(resolver: context.resolver, locale: context.locale)
    let router = PlacesRouter(strings: context.strings)
    router.defaultCountry = { GeoModule.defaultCountry(context) }
    return SilverUnit(router: router, view: PlacesView(router: router, interactor: interactor))
}
