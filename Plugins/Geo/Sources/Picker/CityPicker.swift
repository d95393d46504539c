import Contracts
import ModuleKit

/// Geo's route: the saved cities, and a picker other modules present.
final class GeoRouter: GeoRoute {
    let context: ModuleContext

    init(context: ModuleContext) {
        self.context = context
    }

    func savedCities() throws -> [SavedCity] {
        let interactor = try PlacesInteractor(resolver: context.resolver, locale: context.locale)
        return try interactor.groups().flatMap { group in
            group.cities.map { SavedCity(country: group.country.code, countryName: group.country.name, city: $0.name) }
        }
    }

    func presentCityPicker(completion: @escaping @Sendable (SavedCity?) -> Void) {
        context.navigator.present(CityPickerView(route: self, strings: context.strings, completion: completion))
    }
}

/// A numbered list of saved cities and Back.
final class CityPickerView: Screen {
    let route: GeoRouter
    let strings: ModuleStrings
    let completion: @Sendable (SavedCity?) -> Void

    init(route: GeoRouter, strings: ModuleStrings, completion: @escaping @Sendable (SavedCity?) -> Void) {
        self.route = route
        self.strings = strings
        self.completion = completion
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let cities = (try? route.savedCities()) ?? []
        if cities.isEmpty { ui.print(strings[.placesEmpty]) }
        let options = cities.map { "\($0.city), \($0.countryName)" } + [strings[.actionBack]]
        guard let choice = ui.menu(strings[.pickCity], options) else {
            completion(nil)
            return .quit
        }
        completion(choice < cities.count ? cities[choice] : nil)
        return .pop
    }
}
