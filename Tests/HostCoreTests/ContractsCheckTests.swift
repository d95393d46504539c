import Testing

@testable import HostCore

/// The contracts check's rule where no file decides: without a library beside a module (or one
/// that records no build), the first module to need a contracts library fixes the build the
/// process holds, and later modules are compared with its record.
@Suite struct ContractsCheckTests {
    let old = ContractsBuild(name: "NotesContracts", fingerprint: String(repeating: "a", count: 32))
    let new = ContractsBuild(name: "NotesContracts", fingerprint: String(repeating: "b", count: 32))

    func module(_ name: String, _ contracts: [ContractsBuild]) -> ContractsCheck.Module {
        ContractsCheck.Module(name: name, library: "/m/\(name)/lib\(name).so", contracts: contracts)
    }

    @Test func withoutFilesTheFirstRecordDecides() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [new]), module("Todo", [old]), module("Tags", [new])], beside: { _, _ in .nothing })
        #expect(
            reasons.mapValues(\.description) == [
                "Todo": "was built against NotesContracts \(old.fingerprint), but this run holds NotesContracts \(new.fingerprint) "
                    + "(the build Notes was built against); two builds of a contracts library do not share an ABI: rebuild Todo "
                    + "against the NotesContracts it is loaded with ('swift build --product Todo' in its package) and ship both together"
            ])
    }

    @Test func aLibraryWithoutARecordIsHeldAsTheFirstModuleRecordsIt() {
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [new]), module("Todo", [old])], beside: { _, name in .unrecorded(path: "/m/x/lib\(name).so") })
        #expect(reasons["Notes"] == nil)
        #expect(
            reasons["Todo"]?.description.contains(
                "this run holds NotesContracts \(new.fingerprint) ('/m/x/libNotesContracts.so', loaded with Notes)")
                == true)
    }

    @Test func aRefusedModuleDoesNotDecideForTheOthers() {
        // Notes' folder holds another build than Notes records: Notes is refused and never
        // loads its copy, so Todo, whose own folder matches, is not held to it.
        let reasons = ContractsCheck.conflicts(
            in: [module("Notes", [new]), module("Todo", [old])],
            beside: { library, _ in .build(old, path: library.replacingOccurrences(of: "libNotes", with: "libNotesContracts")) })
        #expect(
            reasons["Notes"]?.description.contains(
                "but this run holds NotesContracts \(old.fingerprint) ('/m/Notes/libNotesContracts.so', beside it)")
                == true)
        #expect(reasons["Todo"] == nil)
    }
}
