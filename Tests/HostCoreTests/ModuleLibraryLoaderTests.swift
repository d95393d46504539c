import Foundation
import ModuleKit
import TestSupport
import Testing

@testable import HostCore

@Suite struct ModuleLibraryLoaderTests {
    let loader = ModuleLibraryLoader.shared

    func refusal(_ name: String, _ path: String) -> LoadError? {
        do {
            _ = try loader.load(name: name, path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func loadsARealModuleAndReadsItsManifest() throws {
        let module = try loader.load(name: "FixtureProvider", path: TestEnvironment.library("FixtureProvider"))
        #expect(module.version == "1.2.3")
        #expect(module.manifest.name == "FixtureProvider")
        #expect(module.manifest.provides.map(\.name) == ["GreetingRoute"])
        let again = try loader.load(name: "FixtureProvider", path: TestEnvironment.library("FixtureProvider"))
        #expect(again.instance !== module.instance, "each load makes a fresh module object")
    }

    @Test func aMissingFileSaysHowToBuildIt() {
        let path = "/nonexistent/libGeo.so"
        let error = refusal("Geo", path)
        #expect(error?.kind == .missingFile)
        #expect(
            error?.description
                == "module 'Geo': library '/nonexistent/libGeo.so' does not exist; build it with 'swift build --product Geo' or set 'library' in modules.json"
        )
    }

    @Test func anEmptyFileIsNotALoadableLibrary() throws {
        let path = try TestEnvironment.write("", named: "libEmpty.so")
        let error = refusal("Empty", path)
        #expect(error?.kind == .notLoadable)
        #expect(error?.description == "module 'Empty': library '\(path)' is not a loadable library: \(path): file too short")
    }

    @Test func aTextFileNamedSoIsNotALoadableLibrary() throws {
        let text = String(repeating: "This is a text file, not a shared library.\n", count: 20)
        let path = try TestEnvironment.write(text, named: "libText.so")
        let error = refusal("Text", path)
        #expect(error?.kind == .notLoadable)
        #expect(error?.description == "module 'Text': library '\(path)' is not a loadable library: \(path): invalid ELF header")
    }

    @Test func aDirectoryIsAMissingFile() throws {
        let path = try TestEnvironment.temporaryFolder()
        #expect(refusal("Folder", path)?.kind == .missingFile)
    }

    @Test func aCLibraryWithoutTheEntrySymbol() {
        let path = TestEnvironment.library("BrokenNoEntry")
        let error = refusal("BrokenNoEntry", path)
        #expect(error?.kind == .missingEntry)
        #expect(
            error?.description
                == "module 'BrokenNoEntry': library '\(path)' has no entry symbol 'modhost_module_entry'; a module declares it with ModuleExport.entry"
        )
    }

    @Test func aWrongABIVersion() {
        let path = TestEnvironment.library("BrokenWrongABI")
        let error = refusal("BrokenWrongABI", path)
        #expect(error?.kind == .abiMismatch)
        #expect(
            error?.description
                == "module 'BrokenWrongABI': library '\(path)' speaks module ABI version 99, the host speaks 1; rebuild it with 'swift build --product BrokenWrongABI'"
        )
    }

    @Test func aNullName() {
        let path = TestEnvironment.library("BrokenNullName")
        let error = refusal("BrokenNullName", path)
        #expect(error?.kind == .malformedDescriptor)
        #expect(error?.description == "module 'BrokenNullName': library '\(path)' has a descriptor without a name (NULL)")
    }

    @Test func aForeignFingerprintSaysHowToRebuild() {
        let path = TestEnvironment.library("BrokenForeignFingerprint")
        let error = refusal("BrokenForeignFingerprint", path)
        #expect(error?.kind == .fingerprintMismatch)
        #expect(
            error?.description
                == "module 'BrokenForeignFingerprint': library '\(path)' was built against ModuleKit 0123456789abcdef0123456789abcdef, the host has \(ModuleKitABI.hostFingerprint); rebuild it with 'swift build --product BrokenForeignFingerprint'"
        )
    }

    @Test func aSwiftModuleCarriesTheFingerprintOfTheKitItWasBuiltWith() throws {
        // The fixture passed the fingerprint check, so its compiled-in value equals the host's.
        #expect(try loader.load(name: "FixtureOptional", path: TestEnvironment.library("FixtureOptional")).version == "2.0.0")
        #expect(ModuleKitABI.hostFingerprint.count == 32)
    }

    @Test func aNameThatDiffersFromModulesJSON() {
        let path = TestEnvironment.library("FixtureConsumer")
        let error = refusal("Consumer", path)
        #expect(error?.kind == .nameMismatch)
        #expect(
            error?.description
                == "module 'Consumer': library '\(path)' holds module 'FixtureConsumer', not 'Consumer'; fix 'name' or 'library' in modules.json"
        )
    }

    @Test func theSameModuleFromASecondPathIsRefused() throws {
        let original = TestEnvironment.library("FixtureCycleA")
        _ = try loader.load(name: "FixtureCycleA", path: original)
        let copy = try TestEnvironment.temporaryFolder() + "/libFixtureCycleA.so"
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        let error = refusal("FixtureCycleA", copy)
        #expect(error?.kind == .duplicatePath)
        #expect(
            error?.description
                == "module 'FixtureCycleA': library '\(copy)' is a second copy of module 'FixtureCycleA', already loaded from '\(original)'; load a module from one path only"
        )
    }
}
