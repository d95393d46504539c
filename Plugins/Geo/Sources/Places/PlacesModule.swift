import ModuleKit

/// Geo's places list: its public face. Parameters come through the initializer, callbacks
/// through `configure`; the child input routers are kept weakly — their views own them.
@MainActor
public final class PlacesRouter {
    let strings: ModuleStrings
    /// The open input step, if any (weak: its view owns it), for the memory test.
    private(set) weak var countryInput: InputRouter?

    public init(strings: ModuleStrings) {
        self.strings = strings
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

    /// Rename asks for the new name with the same input module as add.
    func rename(_ city: City, in country: Country, with interactor: PlacesInteractor) -> Navigation {
        let strings = self.strings
        let step = InputModuleAssembly(
            title: strings[.actionRename] + ": " + city.name, placeholder: strings[.fieldNewName], doneButton: strings[.buttonSave],
            cancelHint: strings[.cancelHint])
        step.router.configure(
            onDone: { text in
                do throws(GeoError) {
                    _ = try interactor.rename(country: country.code, city: city.name, to: text)
                    return .proceed(.pop)
                } catch {
                    return .retry(error.message(strings))
                }
            },
            onCancel: { .pop })
        return .push(step.view)
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
            return choice == 1 ? router.rename(city, in: country, with: interactor) : delete(city, in: country, ui)
        default:
            return .pop
        }
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
@MainActor
public func PlacesModuleAssembly(context: ModuleContext) throws -> SilverModule<PlacesRouter> {
    let interactor = try PlacesInteractor(resolver: context.resolver, locale: context.locale)
    let router = PlacesRouter(strings: context.strings)
    return SilverModule(router: router, view: PlacesView(router: router, interactor: interactor))
}
