import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A run loads and opens only what it needs: `--only` maps only the selected modules and what
/// they require; listing the modules opens no module's database (Settings reads the stored
/// language from a small file); the first use opens the rest.
@Suite struct LoadOnlyWhatIsNeededTests {
    /// The module libraries the host loaded (its `--log-level debug` lines), by file name.
    static func modulesInitialized(_ stderr: String) -> Set<String> {
        Set(loaded(stderr).filter { ["libAuth.so", "libPhotos.so", "libGeo.so", "libSettings.so"].contains($0) })
    }

    /// The file names of every library the host loaded from its checked file.
    static func loaded(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.hasSuffix("' from the file that was checked"), let start = line.range(of: ": loaded '") else { return nil }
            let path = line[start.upperBound...].dropLast("' from the file that was checked".count)
            return String(path.split(separator: "/").last ?? "")
        }
    }

    static let selections: [(String, Set<String>)] = [
        ("Geo", ["libGeo.so"]), ("Photos", ["libPhotos.so"]), ("Settings", ["libSettings.so"]),
        ("Auth,Geo", ["libAuth.so", "libGeo.so"]),
    ]

    @Test(arguments: selections)
    func onlyOpensTheSelectedModulesAndWhatTheyRequire(only: String, expected: Set<String>) throws {
        let host = try TestHost(entries: [("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
        let result = try host.run("--only", only, "--log-level", "debug", "modules")
        #expect(result.succeeded)
        #expect(Self.modulesInitialized(result.stderr) == expected)
    }

    /// What a selected module requires is loaded with it; what it only uses is not.
    @Test func aRequiredProviderIsLoadedWithTheSelection() throws {
        let host = try TestHost(entries: [("FixtureProvider", ""), ("FixtureConsumer", ""), ("FixtureOptional", "")])
        let result = try host.run("--only", "FixtureConsumer", "--log-level", "debug", "modules")
        #expect(result.succeeded)
        let loaded = Self.loaded(result.stderr).filter { $0.hasPrefix("libFixture") && !$0.contains("Contracts") }
        #expect(Set(loaded) == ["libFixtureConsumer.so", "libFixtureProvider.so"])
    }

    @Test func listingTheModulesOpensNoDatabaseAndUseOpensWhatItNeeds() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        func databases() -> [String] {
            let files = FileManager.default.enumerator(atPath: data)?.compactMap { $0 as? String } ?? []
            return files.filter { $0.hasSuffix(".sqlite") }.sorted()
        }
        let modules = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(modules.status == 0)
        #expect(databases() == [], "Settings' stored language comes from its small language file")
        let add = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "geo", "add", "--country", "FR", "--city", "Lyon"],
            environment: ["MODHOST_DATA_DIR": data])
        #expect(add.status == 0, "\(add.stderr)")
        // Geo's database, and Settings' for Geo's default country.
        #expect(databases() == ["Geo/geo.sqlite", "Settings/settings.sqlite"])
    }

    /// The app asks Auth who is signed in at Welcome: before anyone signs up, that makes no
    /// database; after, it reads Auth's and shows who it is.
    @Test func theAppMakesNoDatabaseBeforeAnyoneSignsUp() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let environment = ["MODHOST_DATA_DIR": data]
        let app = try ChildProcess.run(TestEnvironment.modhost, ["--config", config], input: "q\n", environment: environment)
        #expect(app.status == 0, "\(app.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/Auth/auth.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: data + "/Auth/outbox.txt"), "a start writes nothing in Auth's folder")
        let register = try ChildProcess.run(
            TestEnvironment.modhost,
            ["--config", config, "auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n", environment: environment)
        #expect(register.status == 0, "\(register.stderr)")
        let again = try ChildProcess.run(TestEnvironment.modhost, ["--config", config], input: "q\n", environment: environment)
        #expect(again.stdout.contains("Ann"), "\(again.stdout)")
    }

    /// Auth opens libcrypt on its first hash: a start (the app at Welcome included) maps none.
    @Test func libcryptIsOpenedOnTheFirstHashNotAtStart() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Auth", "")]))
        let environment = ["MODHOST_DATA_DIR": try TestEnvironment.temporaryFolder(), "LD_DEBUG": "files"]
        func libcrypt(_ stderr: String) -> [String] { NetworkOnFirstUseTests.initialized(stderr).filter { $0.contains("libcrypt") } }
        let app = try ChildProcess.run(TestEnvironment.modhost, ["--config", config], input: "q\n", environment: environment)
        #expect(app.status == 0)
        #expect(libcrypt(app.stderr) == [])
        let register = try ChildProcess.run(
            TestEnvironment.modhost,
            ["--config", config, "auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n", environment: environment)
        #expect(register.status == 0)
        #expect(libcrypt(register.stderr).count == 1)
    }

    /// The stored language comes from Settings' language file at start; a data folder from
    /// before the file (or one whose file was lost) has it made again from the database.
    @Test func theStoredLanguageIsReadWithoutTheDatabaseAndTheFileIsRemade() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ChildProcess.run(
                TestEnvironment.modhost, ["--config", config] + arguments, environment: ["MODHOST_DATA_DIR": data],
                unsetting: ["LANG", "LC_ALL", "LC_MESSAGES"])
        }
        #expect(try run(["settings", "set", "settings.language", "de"]).status == 0)
        let file = data + "/Settings/language"
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "de\nen\n")
        #expect(try run(["geo", "list"]).stdout == "Noch keine Städte – fügen Sie eine hinzu.\n")
        try FileManager.default.removeItem(atPath: file)
        #expect(try run(["geo", "list"]).stdout == "Noch keine Städte – fügen Sie eine hinzu.\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "de\nen\n")
    }

    /// A database that cannot be opened fails the command that first needs it, attributed to
    /// its module, and the host and the other modules go on.
    @Test func aDatabaseThatCannotBeOpenedFailsItsFirstUseNamed() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        try FileManager.default.createDirectory(atPath: data + "/Geo", withIntermediateDirectories: true)
        _ = chmod(data + "/Geo", 0o700)
        let elsewhere = try TestEnvironment.temporaryFolder() + "/planted"
        #expect(FileManager.default.createFile(atPath: elsewhere, contents: Data("keep".utf8)))
        #expect(symlink(elsewhere, data + "/Geo/geo.sqlite") == 0)
        let modules = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(modules.status == 0)
        #expect(modules.stdout.contains("Geo      active"), "\(modules.stdout)")
        let list = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "geo", "list"], environment: ["MODHOST_DATA_DIR": data])
        #expect(list.status == 1)
        #expect(list.stderr.hasPrefix("modhost: error: geo list: "), "\(list.stderr)")
        #expect(list.stderr.contains("'\(data)/Geo/geo.sqlite' is a symlink"), "\(list.stderr)")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "keep", "nothing was written through the link")
        let settings = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "settings", "list"], environment: ["MODHOST_DATA_DIR": data])
        #expect(settings.status == 0)
    }
}
