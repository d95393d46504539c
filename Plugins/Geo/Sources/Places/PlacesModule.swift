import ModuleKit

/// Geo's places list: its public face. Parameters come through the initializer, callbacks
/// through `configure`; the child input routers are kept weakly — their views own them.
public final class PlacesRouter {
    let strings: ModuleStrings
    private(set) weak var countryInput: InputRouter?
    private(set) weak var cityInput: InputRouter?
    private(set) var onClose: (() -> Void)?

    public init(strings: ModuleStrings) {
        self.strings = strings
    }

    public func configure(onClose: @escaping () -> Void) {
        self.onClose = onClose
    }

    /// The two-step add: the input module for the country, then again for the city. Nothing
    /// is saved until the second step is done; cancelling either step saves nothing.
    func addCity(with interactor: PlacesInteractor) -> Navigation {
        let strings = self.strings
        let countryStep = InputModuleAssembly(
            title: strings[.addTitle], placeholder: strings[.fieldCountry], doneButton: strings[.buttonNext],
            cancelHint: strings[.cancelHint])
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
        let step = InputModuleAssembly(
            title: strings.format(.addCityTitle, country.name), placeholder: strings[.fieldCity], doneButton: strings[.buttonSave],
            cancelHint: strings[.cancelHint])
        cityInput = step.router
        step.router.configure(
            onDone: { text in
                do throws(GeoError) {
                    _ = try interactor.add(country: country.code, city: text)
                    return .proceed(.pop)
                } catch {
                    return .retry(error.message(strings))
                }
            },
            onCancel: { .pop })
        return step.view
    }
}

/// The places list screen (the "V" of SILVER): thin, and owner of its module — popping it
/// frees the router and the interactor.
public final class PlacesView: Screen {
    let router: PlacesRouter
    let interactor: PlacesInteractor

    init(router: PlacesRouter, interactor: PlacesInteractor) {
        self.router = router
        self.interactor = interactor
    }

    public func show(_ ui: TerminalUI) -> Navigation {
        let strings = router.strings
        ui.title(strings[.placesTitle])
        let groups: [CountryGroup]
        do {
            groups = try interactor.groups()
        } catch {
            ui.error(strings.format(.errorStorage, "\(error)"))
            groups = []
        }
        if groups.isEmpty { ui.print(strings[.placesEmpty]) }
        for group in groups {
            ui.print("\(group.country.name) (\(group.country.code))")
            for city in group.cities { ui.print("  \(city.name)") }
        }
        let options = [strings[.actionAdd], strings[.actionRename], strings[.actionDelete], strings[.actionBack]]
        guard let choice = ui.menu(strings[.placesActions], options) else { return .quit }
        switch choice {
        case 0: return router.addCity(with: interactor)
        case 1, 2:
            let cities = groups.flatMap { group in group.cities.map { (group.country, $0) } }
            guard !cities.isEmpty else { return .stay }
            guard let pick = ui.menu(strings[.pickCity], cities.map { "\($0.1.name), \($0.0.name)" }) else { return .quit }
            let (country, city) = cities[pick]
            return choice == 1 ? rename(city, in: country, ui) : delete(city, in: country, ui)
        default:
            router.onClose?()
            return .pop
        }
    }

    private func rename(_ city: City, in country: Country, _ ui: TerminalUI) -> Navigation {
        let strings = router.strings
        guard let newName = ui.ask(strings[.fieldNewName]) else { return .quit }
        do throws(GeoError) {
            _ = try interactor.rename(country: country.code, city: city.name, to: newName)
        } catch {
            ui.error(error.message(strings))
        }
        return .stay
    }

    private func delete(_ city: City, in country: Country, _ ui: TerminalUI) -> Navigation {
        let strings = router.strings
        ui.confirm(strings[.deleteTitle], strings.format(.deleteMessage, city.name, country.name)) {
            do throws(GeoError) {
                _ = try interactor.remove(country: country.code, city: city.name)
            } catch {
                ui.error(error.message(strings))
            }
        }
        return .stay
    }
}

/// Builds Geo's places module: the interactor gets its services from the locator.
///
/// - Throws: ``LocatorError`` when a service is missing (a bug in Geo's registration).
public func PlacesModuleAssembly(context: ModuleContext) throws -> SilverModule<PlacesRouter> {
    let interactor = try PlacesInteractor(resolver: context.resolver, locale: context.locale)
    let router = PlacesRouter(strings: context.strings)
    return SilverModule(router: router, view: PlacesView(router: router, interactor: interactor))
}
