import Foundation
import TestSupport
import Testing

/// `modhost new`, end to end: the package it writes builds and tests as it is, and its library
/// runs in the host beside the shipped modules, sharing the host's one copy of the kit.
///
/// It builds packages and runs the tests `modhost new` wrote, which use ModuleHostTesting
/// themselves; the host it runs directly is told each file by hand.
@Suite struct NewModuleTests {
    private func swift(_ arguments: [String]) throws -> ProcessResult { try SourceTree.swift(arguments) }

    @Test func aScaffoldedModuleBuildsTestsAndRunsInTheHost() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let package = folder + "/Notes"
        let created = try modhost(["new", "Notes", "--output", package])
        #expect(created.status == 0, "\(created.stderr)")
        let entry = #"{ "name": "Notes", "enabled": true, "library": "\#(package)/.build/debug/libNotes.so" }"#
        #expect(created.stdout.contains("swift test --package-path \(package)\n"))
        #expect(created.stdout.contains("  \(entry)\n"))

        // Right after `new`, without editing anything: the unit tests on the harness and the
        // integration tests in this host, with the shipped modules, on a pseudo-terminal.
        let tested = try swift(["test", "--package-path", package])
        #expect(tested.status == 0, "\(tested.stdout)\n\(tested.stderr)")
        #expect(tested.stdout.contains("Test run with 4 tests"), "\(tested.stdout)")
        let built = try swift(["build", "--package-path", package])
        #expect(built.status == 0, "\(built.stderr)")

        // Beside the shipped modules, with the entry `new` printed.
        let modules = ["Auth", "Photos", "Geo", "Settings"].map { ($0, $0 == "Photos" ? #""config": {"source": "catalog"}"# : "") }
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON(modules + [("Notes", #""library": "\#(package)/.build/debug/libNotes.so""#)]))
        let data = try TestEnvironment.temporaryFolder()
        let hello = try modhost(
            ["--config", config, "--data-dir", data, "--log-level", "debug", "notes", "hello", "Ada"], environment: ["LD_DEBUG": "files"])
        #expect(hello.status == 0, "\(hello.stderr)")
        #expect(hello.stdout == "Hello, Ada!\n")
        // One copy of the kit: the host's, though the package built its own libModuleKit.so.
        let initialized = hello.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
        }
        #expect(initialized.filter { $0.hasSuffix("/libModuleKit.so") } == [TestEnvironment.library("ModuleKit")])
        #expect(initialized.filter { $0.hasSuffix("/libContracts.so") } == [TestEnvironment.library("Contracts")])
        #expect(
            hello.stderr.contains(
                "modhost: debug: module 'Notes': loaded '\(URL(fileURLWithPath: package + "/.build/debug/libNotes.so").resolvingSymlinksInPath().path)' from the file that was checked\n"
            ), "\(hello.stderr.suffix(3000))")

        let listed = try modhost(["--config", config, "--data-dir", data, "modules"])
        #expect(listed.stdout.contains("Notes    active 0.1.0"), "\(listed.stdout)")

        // Its Home entry, in the app (Auth off: Home comes first).
        let app = try modhost(["--config", config, "--data-dir", data, "--only", "Notes"], input: "5\nq\n")
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stdout.contains("  5. Notes\n"), "fifth in modules.json")
        #expect(app.stdout.contains("Notes\n=====\nWelcome to Notes.\n"), "\(app.stdout)")
    }

    /// Greet (with `--route`) and Todo, which requires GreetRoute, as two authors would write
    /// them: one route, one copy of its contracts library; then a requirement with a default
    /// added in a minor and only Greet rebuilt (Todo runs on); then the default removed in a
    /// major (Todo refused until it is rebuilt); then the contracts package made static by
    /// mistake (each library carries its own copy of the route: Todo refused).
    @Test func twoScaffoldedModulesShareAVersionedRoute() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let greet = folder + "/Greet"
        let todo = folder + "/Todo"
        let created = try modhost(["new", "Greet", "--route", "--output", greet])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(
            created.stdout.contains(
                "Its route GreetRoute is in '\(greet)/GreetContracts': another module depends on that package and declares 'requires GreetRoute'."
            ))
        #expect(try modhost(["new", "Todo", "--output", todo]).status == 0)
        let tested = try swift(["test", "--package-path", greet])
        #expect(tested.status == 0, "\(tested.stdout)\n\(tested.stderr)")
        #expect(tested.stdout.contains("Test run with 6 tests"), "\(tested.stdout)")

        // Todo uses the route as the contracts package's comment says: depend, import, require.
        try SourceTree.edit(
            todo + "/Package.swift",
            [
                (
                    ".package(path: kit + \"/ModuleKitTesting\"),",
                    ".package(path: kit + \"/ModuleKitTesting\"), .package(path: \"../Greet/GreetContracts\"),"
                ),
                (
                    "dependencies: [moduleKit, contracts],",
                    "dependencies: [moduleKit, contracts, .product(name: \"GreetContracts\", package: \"GreetContracts\")],"
                ),
            ])
        try SourceTree.edit(
            todo + "/Sources/Todo/module.manifest", [("import Contracts", "import Contracts\nimport GreetContracts\nrequires GreetRoute")])
        try build(greet, todo)

        let run = ["--module", "\(greet)/.build/debug/libGreet.so", "--module", "\(todo)/.build/debug/libTodo.so"]
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let host = ["--config", config, "--data-dir", data] + run
        #expect(try moduleStates(host) == ["Settings": "active: ", "Greet": "active: ", "Todo": "active: "])
        let routes = try modhost(host + ["--log-level", "debug", "routes"], environment: ["LD_DEBUG": "files"])
        #expect(routes.status == 0, "\(routes.stderr)")
        #expect(routes.stdout.contains("\nGreetRoute    Greet "), "\(routes.stdout)")
        // One copy of the contracts library, Greet's (loaded first), and of the kit, the host's.
        let initialized = routes.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { String(line[$0.upperBound...]) }
        }
        #expect(initialized.filter { $0.hasSuffix("/libGreetContracts.so") }.count == 1)
        let loadedContracts = routes.errorLines.filter { $0.contains("libGreetContracts.so' from the file that was checked") }
        #expect(
            loadedContracts == [
                "modhost: debug: module 'Greet': loaded '\(URL(fileURLWithPath: greet + "/.build/debug/libGreetContracts.so").resolvingSymlinksInPath().path)' from the file that was checked"
            ], "\(routes.stderr.suffix(3000))")
        #expect(initialized.filter { $0.hasSuffix("/libModuleKit.so") } == [TestEnvironment.library("ModuleKit")])
        #expect(try modhost(host + ["todo", "hello", "Ada"]).stdout == "Hello, Ada!\n")

        // A requirement with a default implementation, and the minor bumped: only Greet is
        // rebuilt, and Todo, built against 1.0.0, runs with the new library.
        let routeSource = greet + "/GreetContracts/Sources/GreetContracts/GreetRoute.swift"
        let versionFile = greet + "/GreetContracts/Sources/GreetContracts/contracts.manifest"
        try SourceTree.edit(
            routeSource,
            [
                (
                    "func greeting(for name: String) -> String\n}\n",
                    "func greeting(for name: String) -> String\n    /// Added in 1.1.0.\n    func farewell() -> String\n}\n\n"
                        + "extension GreetRoute {\n    public func farewell() -> String { \"Bye\" }\n}\n"
                )
            ])
        try SourceTree.edit(versionFile, [("version 1.0.0", "version 1.1.0")])
        try build(greet)
        #expect(try contractsVersion("\(greet)/.build/debug/libGreetContracts.so") == "1.1.0")
        #expect(try contractsVersion("\(todo)/.build/debug/libGreetContracts.so") == "1.0.0")
        #expect(try moduleStates(host)["Todo"] == "active: ")
        #expect(try modhost(host + ["todo", "hello", "Ada"]).stdout == "Hello, Ada!\n")

        // The default goes: modules built before no longer fit, so the major goes up, and Todo
        // is refused until it is rebuilt.
        try SourceTree.edit(routeSource, [("extension GreetRoute {\n    public func farewell() -> String { \"Bye\" }\n}\n", "")])
        try SourceTree.edit(versionFile, [("version 1.1.0", "version 2.0.0")])
        try SourceTree.edit(
            greet + "/Sources/Greet/GreetModule.swift",
            [
                (
                    "final class GreetGreeter: GreetRoute {",
                    "final class GreetGreeter: GreetRoute {\n    func farewell() -> String { \"Bye\" }"
                )
            ])
        try build(greet)
        #expect(
            try moduleStates(host)["Todo"]
                == "failed: library '\(todo)/.build/debug/libTodo.so' was built against GreetContracts 1.0.0, but this run holds "
                + "GreetContracts 2.0.0 ('\(greet)/.build/debug/libGreetContracts.so', loaded with Greet); a module runs only with the "
                + "major of a contracts library it was built against: rebuild Todo against GreetContracts 2.x ('swift build --product "
                + "Todo' in its package) and ship them together")
        let refused = try modhost(host + ["todo", "hello", "Ada"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("was built against GreetContracts 1.0.0"), "\(refused.stderr)")
        try build(todo)
        #expect(try moduleStates(host)["Todo"] == "active: ")

        // The mistake: the contracts product made static, so each library links its own copy.
        try SourceTree.edit(
            greet + "/GreetContracts/Package.swift",
            [(".library(name: \"GreetContracts\", type: .dynamic,", ".library(name: \"GreetContracts\",")])
        try build(greet, todo)
        #expect(
            try moduleStates(host)["Todo"]
                == "failed: route 'GreetRoute' has two identities in this process: libTodo.so and libGreet.so (from 'Greet') each "
                + "carry their own copy of the protocol (its contracts target is linked statically into both); move 'GreetRoute' "
                + "into a package whose library product is 'type: .dynamic', depend on that product from both modules, and "
                + "rebuild both")
        #expect(try moduleStates(host)["Greet"] == "active: ")
    }

    /// A module built against a copy of the kit that differs from the host's by a comment and
    /// an added function loads and runs: one release's kit is as good as another's. Once the
    /// module calls the added function, the host's kit lacks it, and the host says so in
    /// Swift's words before any of the module's code runs.
    @Test func aModuleBuiltAgainstAChangedKitLoadsUntilItUsesWhatTheHostLacks() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let kit = folder + "/kit"
        try copyKit(to: kit)
        try SourceTree.edit(
            kit + "/Sources/ModuleKit/Module/Module.swift",
            [
                (
                    "/// A feature module",
                    "/// Added in a copy of the kit.\npublic func oddAddition() -> Int { 42 }\n\n// A local change.\n/// A feature module"
                )
            ])
        let package = folder + "/Odd"
        #expect(try modhost(["new", "Odd", "--kit", kit, "--output", package]).status == 0)
        try build(package)
        let library = "\(package)/.build/debug/libOdd.so"
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Settings", "")]))
        let runs = try modhost(["--config", config, "--module", library, "odd", "hello", "Ada"])
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout == "Hello, Ada!\n")

        try SourceTree.edit(
            package + "/Sources/Odd/OddModule.swift", [("import ModuleKit\n", "import ModuleKit\n\nlet odd = oddAddition()\n")])
        try build(package)
        let refused = try modhost(["--config", config, "--module", library, "odd", "hello"])
        #expect(refused.status != 0)
        let line = try #require(refused.errorLines.first { $0.contains("'Odd'") })
        #expect(
            line
                == "modhost: error: module 'Odd' is not active: it failed: library '\(library)' needs 'ModuleKit.oddAddition() -> Swift.Int' from ModuleKit, which this host's kit (SDK \(try HostileLibrary.buildRecord().sdk)) does not have: the module was built against a kit that is not a release of SDK \(try HostileLibrary.buildRecord().sdk) (a changed copy, or a build that added to the kit without a new version); rebuild it against this host's kit, '\(TestEnvironment.repository)/Sources/ModuleKit'; in its package: 'swift build --product Odd'"
        )
        #expect(!line.contains("$s"), "no mangled symbol")
    }

    private func build(_ packages: String...) throws {
        for package in packages {
            let built = try swift(["build", "--package-path", package])
            #expect(built.status == 0, "\(package): \(built.stdout)\n\(built.stderr)")
        }
    }

    /// The version a contracts library records in its `.modhost_contracts` section.
    private func contractsVersion(_ library: String) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        let found = try #require(bytes.range(of: Data("\nversion=".utf8)), "\(library) records no version")
        return String(decoding: bytes[found.upperBound...].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// The kit package of this checkout, without build products (dot folders), copied to `destination`.
    private func copyKit(to destination: String) throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try SourceTree.copy(from: checkout.appendingPathComponent("Sources/ModuleKit").path, to: destination)
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

        // Without a command, dev runs the app with the module in a process of its own: a new
        // library runs in the open app (live restart); a strings file, read when the module's
        // process starts, starts the app again.
        try Data(edited.utf8).write(to: URL(fileURLWithPath: source))
        let app = try ChildProcess.start(
            TestEnvironment.modhost, ["--config", config, "--data-dir", data, "--only", "Notes", "dev", package],
            environment: ["LANG": "en_US.UTF-8"], unsetting: ["LC_ALL", "LC_MESSAGES"])
        defer {
            app.send(SIGTERM)
            _ = try? app.wait(deadline: 30)
        }
        try app.waitForOutput(containing: "dev: built in ", deadline: 600)
        try app.waitForOutput(containing: "running the app\n", deadline: 60)
        try app.waitForOutput(containing: "  2. Notes\n", deadline: 60)
        let english = package + "/Sources/Notes/Resources/Strings/en.lproj/Localizable.strings"
        let strings = try String(contentsOfFile: english, encoding: .utf8)
        try Data(strings.replacingOccurrences(of: #""home.title" = "Notes";"#, with: #""home.title" = "Notebook";"#).utf8)
            .write(to: URL(fileURLWithPath: english))
        try app.waitForOutput(containing: "dev: 'Sources/Notes/Resources/Strings/en.lproj/Localizable.strings' changed\n", deadline: 60)
        try app.waitForOutput(containing: "  2. Notebook\n", deadline: 600)
        try Data(text.utf8).write(to: URL(fileURLWithPath: source))
        try app.waitForOutput(containing: "dev: 'Sources/Notes/NotesModule.swift' changed\n", deadline: 60)
        try app.waitForOutput(containing: "the open app runs it now\n", deadline: 600)
        let deadline = ContinuousClock.now + .seconds(60)
        while !app.stderr.contains("module 'Notes': now runs its new library"), ContinuousClock.now < deadline { usleep(20_000) }
        #expect(app.stderr.contains("module 'Notes': now runs its new library"), "\(app.stderr)")
        #expect(app.stdout.components(separatedBy: "running the app\n").count == 3, "started twice, not for the code: \(app.stdout)")
    }

    /// Refused with the folder named whole, however deep (a value such as a name is cut at
    /// 120 characters; a path is not).
    @Test func devRefusesAFolderThatIsNotAModulePackage() throws {
        let folder = try TestEnvironment.temporaryFolder() + "/" + String(repeating: "a-deeper-folder/", count: 10) + "end"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try modhost(["dev", folder])
        #expect(result.status == 2)
        #expect(
            result.errorLines == [
                "modhost: error: dev: no module package at '\(folder)': expected Package.swift and Sources/module.manifest or Sources/<Target>/module.manifest with a 'name' line"
            ])
        let library = folder + "/libNotes.txt"
        let extra = try modhost(["--module", library, "modules"])
        #expect(extra.errorLines == ["modhost: error: --module '\(library)': expected a module library named lib<Name>.so"])
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
                "modhost: error: new: cannot create '\(folder)/Notes': it already exists; choose a new folder with --output DIR"
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
