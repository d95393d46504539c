import Foundation
import TestSupport
import Testing

/// `modhost new`, end to end: the package it writes builds and tests as it is, and its library
/// runs in the host beside the shipped modules, sharing the host's one copy of the kit.
@Suite struct NewModuleTests {
    /// `swift` from PATH, with a generous limit: a cold build of the kit and the module.
    private func swift(_ arguments: [String]) throws -> ProcessResult {
        try ChildProcess.run("/usr/bin/env", ["swift"] + arguments, deadline: 900)
    }

    @Test func aScaffoldedModuleBuildsTestsAndRunsInTheHost() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let package = folder + "/Notes"
        let created = try modhost(["new", "Notes", "--output", package])
        #expect(created.status == 0, "\(created.stderr)")
        let entry = #"{ "name": "Notes", "enabled": true, "library": "\#(package)/.build/debug/libNotes.so" }"#
        #expect(created.stdout.contains("swift test --package-path \(package)\n"))
        #expect(created.stdout.contains("  \(entry)\n"))

        // Right after `new`, without editing anything.
        let tested = try swift(["test", "--package-path", package])
        #expect(tested.status == 0, "\(tested.stdout)\n\(tested.stderr)")
        #expect(tested.stdout.contains("Test run with 2 tests"), "\(tested.stdout)")
        let built = try swift(["build", "--package-path", package])
        #expect(built.status == 0, "\(built.stderr)")

        // Beside the shipped modules, with the entry `new` printed.
        let modules = ["Auth", "Photos", "Geo", "Settings"].map { ($0, $0 == "Photos" ? #""config": {"source": "catalog"}"# : "") }
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON(modules + [("Notes", #""library": "\#(package)/.build/debug/libNotes.so""#)]))
        let data = try TestEnvironment.temporaryFolder()
        let hello = try modhost(["--config", config, "--data-dir", data, "notes", "hello", "Ada"], environment: ["LD_DEBUG": "files"])
        #expect(hello.status == 0, "\(hello.stderr)")
        #expect(hello.stdout == "Hello, Ada!\n")
        // One copy of the kit: the host's, though the package built its own libModuleKit.so.
        let initialized = hello.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
        }
        #expect(initialized.filter { $0.hasSuffix("/libModuleKit.so") } == [TestEnvironment.library("ModuleKit")])
        #expect(initialized.filter { $0.hasSuffix("/libContracts.so") } == [TestEnvironment.library("Contracts")])
        #expect(initialized.contains("\(package)/.build/debug/libNotes.so"))

        let listed = try modhost(["--config", config, "--data-dir", data, "modules"])
        #expect(listed.stdout.contains("Notes    active 0.1.0"), "\(listed.stdout)")

        // Its Home entry, in the app (Auth off: Home comes first).
        let app = try modhost(["--config", config, "--data-dir", data, "--only", "Notes"], input: "1\n2\n")
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stdout.contains("  1. Notes\n"))
        #expect(app.stdout.contains("Notes\n=====\nWelcome to Notes.\n"), "\(app.stdout)")
    }

    @Test func withRouteItsContractsPackageProvidesARouteTheHostLists() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let package = folder + "/Greet"
        let created = try modhost(["new", "Greet", "--route", "--output", package])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(
            created.stdout.contains(
                "Its route GreetRoute is in '\(package)/GreetContracts': another module depends on that package and declares 'requires GreetRoute'."
            ))
        let tested = try swift(["test", "--package-path", package])
        #expect(tested.status == 0, "\(tested.stdout)\n\(tested.stderr)")
        #expect(tested.stdout.contains("Test run with 3 tests"), "\(tested.stdout)")
        let built = try swift(["build", "--package-path", package])
        #expect(built.status == 0, "\(built.stderr)")

        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Settings", ""), ("Greet", #""library": "\#(package)/.build/debug/libGreet.so""#)]))
        let data = try TestEnvironment.temporaryFolder()
        let routes = try modhost(["--config", config, "--data-dir", data, "routes"], environment: ["LD_DEBUG": "files"])
        #expect(routes.status == 0, "\(routes.stderr)")
        #expect(routes.stdout.contains("\nGreetRoute    Greet "), "\(routes.stdout)")
        let initialized = routes.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
        }
        #expect(initialized.filter { $0.hasSuffix("/libGreetContracts.so") } == ["\(package)/.build/debug/libGreetContracts.so"])
        #expect(initialized.filter { $0.hasSuffix("/libModuleKit.so") } == [TestEnvironment.library("ModuleKit")])
    }

    @Test func devRebuildsOnAnEditAndRunsTheCommandAgain() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let package = folder + "/Notes"
        #expect(try modhost(["new", "Notes", "--output", package]).status == 0)
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let dev = try ChildProcess.start(
            TestEnvironment.modhost, ["--config", config, "--data-dir", data, "dev", package, "--", "notes", "hello", "Ada"])
        var stopped = false
        defer {
            if !stopped {
                dev.send(SIGTERM)
                _ = try? dev.wait(deadline: 30)
            }
        }
        // The first build is cold.
        try dev.waitForOutput(containing: "Hello, Ada!\ndev: exited with 0; waiting for a change\n", deadline: 900)
        let source = package + "/Sources/Notes/NotesModule.swift"
        let text = try String(contentsOfFile: source, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "context.ui.print(context.strings.format(.greeting, who))", with: #"context.ui.print("Howdy, " + who + "!")"#)
        #expect(edited != text)
        try Data(edited.utf8).write(to: URL(fileURLWithPath: source))
        try dev.waitForOutput(containing: "dev: 'Sources/Notes/NotesModule.swift' changed\n", deadline: 60)
        try dev.waitForOutput(containing: "Howdy, Ada!\n", deadline: 600)

        // A broken edit: the compiler's error is shown, and dev waits for the next change.
        try Data((edited + "\nthis is not Swift\n").utf8).write(to: URL(fileURLWithPath: source))
        try dev.waitForOutput(containing: "dev: the build failed (above); waiting for a change\n", deadline: 600)
        dev.send(SIGTERM)
        stopped = true
        let result = try dev.wait(deadline: 30)
        #expect(result.stderr.contains("NotesModule.swift"), "\(result.stderr)")
        #expect(result.stderr.contains("error:"), "\(result.stderr)")
    }

    @Test func devRefusesAFolderThatIsNotAModulePackage() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let result = try modhost(["dev", folder])
        #expect(result.status == 2)
        #expect(
            result.errorLines == [
                "modhost: error: dev: no module package at '\(folder)': expected Package.swift and Sources/<Target>/module.manifest with a 'name' line"
            ])
    }

    @Test(arguments: [
        (["new", "notes"], 2, "modhost: error: new: 'notes' is not a module name: start it with an upper-case letter (e.g. 'Notes')"),
        (
            ["new", "No-tes"], 2,
            "modhost: error: new: 'No-tes' is not a module name: use letters, digits and '_', starting with a letter (at most 64)"
        ),
        (["new", "ModuleKit"], 2, "modhost: error: new: 'ModuleKit' is the name of a library every module links; choose another"),
        (["new"], 2, "modhost: error: 'new' needs the module's name: modhost new NAME [--output DIR]"),
        (["new", "A", "B"], 2, "modhost: error: 'new' takes one name, found 'B' too; see 'modhost --help'"),
    ])
    func aBadNameIsRefused(arguments: [String], status: Int32, message: String) throws {
        let folder = try TestEnvironment.temporaryFolder()
        let result = try modhost(arguments, in: folder)
        #expect(result.status == status)
        #expect(result.errorLines == [message])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }

    @Test func nothingIsOverwrittenNotEvenThroughASymlink() throws {
        let folder = try TestEnvironment.temporaryFolder()
        // An existing folder, and a planted symlink to elsewhere.
        try FileManager.default.createDirectory(atPath: folder + "/Notes", withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/Notes/Package.swift"))
        let elsewhere = try TestEnvironment.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder + "/Link", withDestinationPath: elsewhere)
        let existing = try modhost(["new", "Notes"], in: folder)
        #expect(existing.status == 1)
        #expect(
            existing.errorLines == [
                "modhost: error: new: cannot create '\(folder)/Notes': already exists; choose a new folder with --output DIR"
            ])
        #expect(try String(contentsOfFile: folder + "/Notes/Package.swift", encoding: .utf8) == "keep")
        let linked = try modhost(["new", "Notes", "--output", "Link"], in: folder)
        #expect(linked.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
    }

    @Test func aFolderThatIsNotTheKitIsRefused() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let result = try modhost(["new", "Notes", "--kit", folder], in: folder)
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "modhost: error: new: no ModuleKit package at '\(folder)' (the kit sources this modhost was built from); pass --kit PATH to the kit package of this host's checkout"
            ])
        #expect(!FileManager.default.fileExists(atPath: folder + "/Notes"))
    }
}
