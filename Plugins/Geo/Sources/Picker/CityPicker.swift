import Contracts
import ModuleKit

/// Geo's route (what other modules resolve): the saved cities, and the city picker, which is a
/// SILVER module like the rest of Geo, presented on the main actor.
final class GeoRouter: GeoRoute {
    let context: ModuleContext

    init(context: ModuleContext) {
        self.context = context
    }

    func savedCities() throws -> [SavedCity] {
        try PlacesInteractor(resolver: context.resolver, locale: context.locale).savedCities()
    }

    @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void) {
        do {
            let picker = try CityPickerUnitAssembly(context: context)
            picker.router.configure(onPick: completion)
            context.navigator.present(picker.view)
        } catch {
            context.navigator.present(ErrorScreen(message: "\(error)"))
        }
    }
}

/// The picker's public face: the callback through one `configure`, as ``InputRouter``.
@MainActor
public final class CityPickerRouter {
    private(set) var onPick: ((SavedCity?) -> Void)?

    public init() {}

    public func configure(onPick: @escaping (SavedCity?) -> Void) {
        self.onPick = onPick
    }
}

/// A numbered list of saved cities and Back: thin, and owner of its unit.
final class CityPickerView: Screen {
    let router: CityPickerRouter
    let interactor: PlacesInteractor
    let strings: ModuleStrings

    init(router: CityPickerRouter, interactor: PlacesInteractor, strings: ModuleStrings) {
        self.router = router
        self.interactor = interactor
        self.strings = strings
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let cities = (try? interactor.savedCities()) ?? []
        let empty = cities.isEmpty ? [strings[.placesEmpty]] : []
        switch ui.menu(strings[.pickCity], cities.map { "\($0.city), \($0.countryName)" }, details: empty) {
        case .item(let index):
            router.onPick?(cities[index])
            return .pop
        case .shortcut, .back:
            router.onPick?(nil)
            return .pop
        case .quit:
            router.onPick?(nil)
            return .quit
        @unknown default:
            router.onPick?(nil)
            return .pop
        }
    }
}

/// Builds the city picker: the interactor gets its services from the locator.
@MainActor
func CityPickerUnitAssembly(context: ModuleContext) throws -> SilverUnit<CityPickerRouter> {
    let router = CityPickerRouter()
    let interactor = try PlacesInteractor(resolver: context.resolver, locale: context.locale)
    return SilverUnit(router: router, view: CityPickerView(router: router, interactor: interactor, strings: context.strings))
}
