import Contracts
import ModuleKit
import ModuleKitTesting
import Synchronization
import Testing

@testable import GeoFeature

/// Geo as the host runs it (through the harness): commands, Home entry, and the route.
@MainActor
@Suite struct GeoModuleTests {
    @Test func theRouteListsSavedCitiesAndPresentsAPicker() throws {
        let harness = ModuleTestHarness(GeoModule.self, input: ["2"])
        try harness.start()
        try harness.run("add", ["--country", "JP", "--city", "Kyoto"])
        try harness.run("add", ["--country", "JP", "--city", "Osaka"])
        let geo = try harness.resolve((any GeoRoute).self)
        #expect(try geo.savedCities().map(\.city) == ["Kyoto", "Osaka"])
        let picked = Mutex<SavedCity?>(nil)
        geo.presentCityPicker { city in picked.withLock { $0 = city } }
        harness.run(EmptyScreen())
        #expect(picked.withLock { $0 } == SavedCity(country: "JP", countryName: "Japan", city: "Osaka"))
    }

    @Test func contributesALocalizedHomeEntry() throws {
        let harness = ModuleTestHarness(GeoModule.self)
        try harness.start()
        #expect(try harness.homeEntries().map(\.title) == ["Places"])
        harness.locale.set("el")
        #expect(try harness.homeEntries().map(\.title) == ["Τοποθεσίες"])
    }
}

final class EmptyScreen: Screen {
    func show(_ ui: TerminalUI) -> Navigation { .pop }
}
