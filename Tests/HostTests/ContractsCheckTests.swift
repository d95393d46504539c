import Testing

@testable import HostLoading
@testable import HostModel

/// The contracts check's rules: a module runs with the contracts library of the major it was
/// built against, at a minor up to the one the process holds. Where no file decides (no
/// library beside a module, or one that records no version), the first module to need a
/// contracts library fixes the version the process holds, and later modules are compared
/// with its record.
@Suite struct ContractsCheckTests {
    func version(_ text: String) -> ContractsVersion { ContractsVersion(name: "NotesContracts", version: text) }

    func module(_ name: String, _ contracts: [ContractsVersion]) -> ContractsCheck.Module {
        ContractsCheck.Module(name: name, library: "/m/\(name)/lib\(name).so", contracts: contracts)
    }

    @Test func withoutFilesTheFirstRecordDecides() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("1.2.0")]), module("Todo", [version("1.3.1")]), module("Tags", [version("1.1.0")])],
            beside: { _, _ in .nothing })
        #expect(
            reasons.mapValues(\.description) == [
                "Todo": "was built against NotesContracts 1.3.1, but this run holds NotesContracts 1.2.0 (the version Notes was "
                    + "built against), which lacks what 1.3 added: ship NotesContracts 1.3 or later in its place"
            ])
    }

    @Test func anOlderMinorAndAnyPatchFitTheHeldLibrary() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("1.4.0")]), module("Todo", [version("1.0.0")]), module("Tags", [version("1.4.9")])],
            beside: { _, _ in .nothing })
        #expect(reasons.isEmpty)
    }

    @Test func anotherMajorIsRefusedWithTheModuleToRebuild() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("2.0.0")]), module("Todo", [version("1.5.0")])], beside: { _, _ in .nothing })
        #expect(
            reasons["Todo"]?.description
                == "was built against NotesContracts 1.5.0, but this run holds NotesContracts 2.0.0 (the version Notes was built "
                + "against); a module runs only with the major of a contracts library it was built against: rebuild Todo against "
                + "NotesContracts 2.x ('swift build --product Todo' in its package) and ship them together")
    }

    @Test func aLibraryWithoutARecordIsHeldAsTheFirstModuleRecordsIt() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("1.0.0")]), module("Todo", [version("1.1.0")])],
            beside: { _, name in .unrecorded(path: "/m/x/lib\(name).so") })
        #expect(reasons["Notes"] == nil)
        #expect(
            reasons["Todo"]?.description.contains("this run holds NotesContracts 1.0.0 ('/m/x/libNotesContracts.so', loaded with Notes)")
                == true)
    }

    @Test func theLibraryBesideTheFirstModuleDecides() {
        // Notes records 1.0.0 but ships 1.2.0 beside it: the process holds 1.2.0, so Todo,
        // built against 1.2.0, runs; Tags, built against 1.3.0, does not.
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("1.0.0")]), module("Todo", [version("1.2.0")]), module("Tags", [version("1.3.0")])],
            beside: { library, _ in
                .version(version("1.2.0"), path: library.replacingOccurrences(of: "/libNotes", with: "/libNotesContracts"))
            })
        #expect(reasons["Notes"] == nil)
        #expect(reasons["Todo"] == nil)
        #expect(
            reasons["Tags"]?.description.contains(
                "but this run holds NotesContracts 1.2.0 ('/m/Notes/libNotesContracts.so', loaded with Notes), which lacks what 1.3 added")
                == true)
    }

    @Test func aRefusedModuleDoesNotDecideForTheOthers() {
        // Notes' folder holds 1.0.0, older than the 1.3.0 Notes records: Notes is refused and
        // never loads its copy. Todo's folder holds 1.2.0, which Todo needs: had Notes' copy
        // decided, Todo would be refused too.
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [version("1.3.0")]), module("Todo", [version("1.2.0")])],
            beside: { library, _ in
                let folder = library.hasPrefix("/m/Notes/") ? "/m/Notes" : "/m/Todo"
                return .version(version(folder == "/m/Notes" ? "1.0.0" : "1.2.0"), path: folder + "/libNotesContracts.so")
            })
        #expect(
            reasons["Notes"]?.description.contains("but this run holds NotesContracts 1.0.0 ('/m/Notes/libNotesContracts.so', beside it)")
                == true)
        #expect(reasons["Todo"] == nil)
    }
}
