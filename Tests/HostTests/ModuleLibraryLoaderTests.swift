import Foundation
import ModuleKit
import Synchronization
import TestSupport
import Testing

@testable import HostLoading

@Suite struct ModuleLibraryLoaderTests {
    let loader = ModuleLibraryLoader.shared

    /// Checks the file and reads its descriptor, as the host does, then loads it.
    func load(_ name: String, _ path: String) throws(LoadError) -> LoadedModule {
        let inspected = try LibraryInspection.inspect(name: name, path: path)
        return try loader.load(name: name, file: inspected.file, descriptor: inspected.descriptor)
    }

    func refusal(_ name: String, _ path: String) -> LoadError? {
        do {
            _ = try load(name, path)
            return nil
        } catch {
            return error
        }
    }

    @Test func oneLibraryLoadedFromManyThreads() throws {
        let path = TestEnvironment.library("FixtureConsumer")
        let inspected = try LibraryInspection.inspect(name: "FixtureConsumer", path: path)
        let loaded = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if (try? loader.load(name: "FixtureConsumer", file: inspected.file, descriptor: inspected.descriptor)) != nil {
                loaded.add(1, ordering: .relaxed)
            }
        }
        #expect(loaded.load(ordering: .relaxed) == 16)
    }

    @Test func loadsARealModuleAndReadsItsManifest() throws {
        let module = try load("FixtureProvider", TestEnvironment.library("FixtureProvider"))
        #expect(module.version == "1.2.3")
        #expect(module.manifest.name == "FixtureProvider")
        #expect(module.manifest.provides.map(\.name) == ["GreetingRoute"])
        let again = try load("FixtureProvider", TestEnvironment.library("FixtureProvider"))
        #expect(again.instance !== module.instance, "each load makes a fresh module object")
    }

    @Test func aMissingFileSaysHowToBuildIt() {
        let path = "/nonexistent/libGeo.so"
        let error = refusal("Geo", path)
        #expect(error?.kind == .missingFile)
        #expect(
            error?.description
                == "module 'Geo': library '/nonexistent/libGeo.so' does not exist; build it (in its package: 'swift build --product Geo') or correct the path"
        )
    }

    @Test func anEmptyFileIsNotALoadableLibrary() throws {
        let path = try TestEnvironment.write("", named: "libEmpty.so")
        let error = refusal("Empty", path)
        #expect(error?.kind == .notLoadable)
        #expect(
            error?.description
                == "module 'Empty': library '\(path)' is not an ELF file; a module library is a shared object built with 'swift build'")
    }

    @Test func aTextFileNamedSoIsNotALoadableLibrary() throws {
        let text = String(repeating: "This is a text file, not a shared library.\n", count: 20)
        let path = try TestEnvironment.write(text, named: "libText.so")
        let error = refusal("Text", path)
        #expect(error?.kind == .notLoadable)
        #expect(
            error?.description
                == "module 'Text': library '\(path)' is not an ELF file; a module library is a shared object built with 'swift build'")
    }

    @Test func aFolderIsNotARegularFile() throws {
        let path = try TestEnvironment.temporaryFolder()
        let error = refusal("Folder", path)
        #expect(error?.kind == .untrusted)
        #expect(error?.description == "module 'Folder': library '\(path)' is a folder, not a regular file; give the path of a regular file")
    }

    @Test func aLibraryWithoutADescriptorIsRefusedFromTheFile() {
        // A real shared object, but not a module: the fixture contracts library.
        let path = TestEnvironment.library("FixtureContracts")
        let error = refusal("FixtureContracts", path)
        #expect(error?.kind == .noDescriptor)
        #expect(
            error?.description
                == "module 'FixtureContracts': library '\(path)' has no module descriptor (section '.modhost_descriptor'); add a module.manifest to its target, apply the kit's ModuleDescriptorPlugin, and rebuild it; in this checkout: 'swift build --product FixtureContracts'"
        )
    }

    /// After the file's descriptor, the entry point answers the same handshake: a library
    /// whose code disagrees with its descriptor is still refused.
    @Test(arguments: [
        (
            "BrokenNoEntry", LoadError.Kind.missingEntry,
            "has no entry symbol 'modhost_module_entry'; a module declares it with ModuleExport.entry"
        ),
        (
            "BrokenWrongABI", .abiMismatch,
            "speaks module ABI version 99, the host speaks 2; rebuild it against this host's kit; in its package: 'swift build --product BrokenWrongABI'"
        ),
        ("BrokenNullName", .malformedDescriptor, "has a descriptor without a name (NULL)"),
        (
            "BrokenForeignSDK", .descriptorMismatch,
            "answers SDK '9.9.9' from its entry point but its descriptor records '\(ModuleKitABI.sdkVersion)'; rebuild it against one kit"
        ),
    ])
    func theEntryPointHandshakeStillChecksWhatItAnswers(name: String, kind: LoadError.Kind, cause: String) throws {
        let path = try HostileLibrary.armedCopy(of: name)
        let error = refusal(name, path)
        #expect(error?.kind == kind)
        #expect(error?.description == "module '\(name)': library '\(path)' \(cause)")
    }

    @Test func anotherSDKMajorIsRefusedBeforeTheLibraryIsOpened() {
        // Its constructor aborts: the test process survives only because the file is not
        // opened. Unarmed, it records SDK 0.0.0.
        let path = TestEnvironment.library("HostileAbortInConstructor")
        let error = refusal("HostileAbortInConstructor", path)
        #expect(error?.kind == .sdkMismatch)
        #expect(
            error?.description
                == "module 'HostileAbortInConstructor': library '\(path)' was built against SDK 0.0.0; this host has SDK \(ModuleKitABI.sdkVersion): a module runs only in a host of the SDK major it was built against (0.x): rebuild the module against this host's kit; this host's kit is '\(TestEnvironment.repository)/Sources/ModuleKit' (the 'let kit' line of the module's Package.swift names the kit it builds against); in this checkout: 'swift build --product HostileAbortInConstructor'"
        )
    }

    @Test func aGarbageDescriptorIsMalformed() {
        let path = TestEnvironment.library("HostileGarbageDescriptor")
        let error = refusal("HostileGarbageDescriptor", path)
        #expect(error?.kind == .malformedDescriptor)
        #expect(
            error?.description
                == "module 'HostileGarbageDescriptor': library '\(path)' has a malformed module descriptor: it says its payload is 65535 bytes but holds 17"
        )
    }

    @Test func aSwiftModuleRecordsTheSDKAndTheCompilerOfItsBuild() throws {
        // The fixture passed the SDK and compiler checks and the entry point's answer agreed.
        #expect(try load("FixtureOptional", TestEnvironment.library("FixtureOptional")).version == "2.0.0")
        #expect(
            try HostileLibrary.buildRecord() == HostileLibrary.BuildRecord(sdk: ModuleKitABI.sdkVersion, compiler: ModuleKitABI.compiler))
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
        _ = try load("FixtureCycleA", original)
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
