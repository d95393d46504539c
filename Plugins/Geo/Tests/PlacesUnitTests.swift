import ModuleKit
import ModuleKitTesting
import Testing

@testable import GeoFeature

/// The SILVER unit on a navigator: the two-step add with the reusable input unit, cancel,
/// and the memory rule.
@MainActor
@Suite struct PlacesUnitTests {
    func run(_ input: [String], storage: InMemoryGeoStorage = InMemoryGeoStorage()) throws -> (ScriptedTerminal, InMemoryGeoStorage) {
        let terminal = ScriptedTerminal(lines: input)
        let navigator = Navigator(ui: TerminalUI(terminal: terminal, labels: { $0.rawValue }))
        let locale = LocaleSetting(environment: [:])
        let interactor = try PlacesInteractor(resolver: try makeResolver(storage: storage), locale: locale)
        let router = PlacesRouter(strings: try geoStrings(locale: "en"))
        navigator.run(root: PlacesView(router: router, interactor: interactor))
        return (terminal, storage)
    }

    @Test func addsACityInTwoStepsOfTheSameInputModule() throws {
        let (terminal, storage) = try run(["1", "Frnce", "France", "Lyon", "0"])
        #expect(terminal.output.contains("Add city\n========\n(leave empty to cancel)\nWhich country? "))
        #expect(terminal.output.contains("! 'Frnce' is not a country. Did you mean: France?"))
        #expect(terminal.output.contains("Add a city in France\n====================\n(leave empty to cancel)\nWhich city? "))
        // One line says what happened, then the list shows it.
        #expect(terminal.output.contains("Which city? Saved Lyon in France.\n"))
        #expect(terminal.output.contains("France (FR)\n  · Lyon\n"))
        #expect(try storage.count() == 1)
    }

    @Test(arguments: [["1", "", "0"], ["1", "FR", "", "0"], ["1", "FR"]])
    func cancellingEitherStepSavesNothing(input: [String]) throws {
        let (terminal, storage) = try run(input)
        #expect(try storage.count() == 0)
        // An empty answer is a cancel, and says so; the end of input just ends.
        #expect(terminal.output.contains("Nothing was added.") == input.contains(""), "\(terminal.output)")
    }

    @Test func deleteAsksAndCancelKeepsTheCity() throws {
        // Add Lyon, Delete → Lyon → Cancel, then back: Lyon is still there, and the screen says so.
        let (terminal, storage) = try run(["1", "FR", "Lyon", "3", "1", "0", "0"])
        #expect(terminal.output.contains("Delete Lyon (France)?\n  1. button.continue\n  0 button.cancel\n"))
        #expect(terminal.output.contains("Nothing was deleted.\n"))
        #expect(try storage.count() == 1)
    }

    @Test func renameAsksThroughTheSameInputModule() throws {
        // Add Lyon, Rename → Lyon → "Lugdunum"; then Rename → Lugdunum → empty (cancel).
        let (terminal, storage) = try run(["1", "FR", "Lyon", "2", "1", "Lugdunum", "2", "1", "", "0"])
        #expect(terminal.output.contains("Rename Lyon\n===========\n(leave empty to cancel)\nWhat is its new name? "))
        #expect(terminal.output.contains("Renamed Lyon to Lugdunum.\n"))
        #expect(terminal.output.contains("France (FR)\n  · Lugdunum\n"))
        #expect(try storage.count() == 1)
    }

    @Test func aRefusedNewNameIsAskedAgain() throws {
        let (terminal, storage) = try run(["1", "FR", "Lyon", "1", "FR", "Nice", "2", "1", "NICE", "Lutetia", "0"])
        #expect(terminal.output.contains("! "), "the duplicate is refused with a message")
        #expect(terminal.output.contains("  · Lutetia\n"))
        #expect(try storage.count() == 2)
    }

    @Test func deleteAsksAndContinueDeletes() throws {
        let (terminal, storage) = try run(["1", "FR", "Lyon", "3", "1", "1", "0"])
        #expect(terminal.output.contains("Deleted Lyon (France).\n"))
        #expect(terminal.output.contains("No cities yet — add one.\n"))
        #expect(try storage.count() == 0)
    }

    @Test func renameOrDeleteWithoutCitiesSaysSoAndThePickerGoesBack() throws {
        let (terminal, _) = try run(["2", "3", "1", "FR", "Lyon", "2", "0", "3", "", "0"])
        #expect(terminal.output.components(separatedBy: "No cities yet — add one.\n").count >= 3)
        #expect(terminal.output.contains("Which city?\n===========\n  1. Lyon, France\n  0 button.back · q app.quit\n"))
    }

    @Test func poppingTheViewFreesTheWholeUnit() throws {
        weak var router: PlacesRouter?
        weak var interactor: PlacesInteractor?
        weak var input: InputRouter?
        let terminal = ScriptedTerminal(lines: ["1", "", "0"])
        let navigator = Navigator(ui: TerminalUI(terminal: terminal, labels: { $0.rawValue }))
        do {
            let unit = try PlacesUnitAssembly(context: .testing(moduleName: "Geo", resolver: try makeResolver()))
            router = unit.router
            interactor = (unit.view as? PlacesView)?.interactor
            #expect(router != nil)
            #expect(interactor != nil)
            // The router keeps its child weakly: opening the input unit does not keep it.
            navigator.run(root: unit.view)
            input = unit.router.countryInput
        }
        #expect(navigator.depth == 0)
        #expect(router == nil)
        #expect(interactor == nil)
        #expect(input == nil)
    }
}
