import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Live restart: the library of a module in a process of its own, replaced on disk while the
/// app is open, runs at once in a new process; the old process ends and no other module starts
/// again. A file that fails its checks leaves the running library serving, and the host says
/// why. FixtureLiveOne and FixtureLiveTwo are two builds of module FixtureLive, whose Home entry
/// says which build answers; build two declares a file to read that build one does not.
@Suite struct LiveRestartTests {
    @Test func aLibraryReplacedWhileTheAppIsOpenRunsAtOnceAndABrokenOneIsRefused() throws {
        let host = try TestHost(entries: [("Geo", "")])
        // Beside the data folder and modules.json: a folder a module's sandbox grants file by
        // file, which its process may not list (the contracts library beside it is found by name).
        let library = host.folder + "/libFixtureLive.so"
        for name in ["libFixtureContracts.so"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: host.folder + "/" + name)
        }
        try put(TestEnvironment.library("FixtureLiveOne"), at: library)
        var modules = try [TestHost.Module(entry: ("Geo", ""))]
        modules.append(TestHost.Module(name: "FixtureLive", library: library))
        try host.write(modules)

        let app = try host.start(arguments: ["--isolate", "FixtureLive", "--isolate", "Geo"])
        try app.waitForOutput(containing: "Which one?")
        let entry = try #require(Self.number(of: "Build one", in: app.stdout), "\(app.stdout)")
        let geo = Self.processes(of: app.processIdentifier, running: "Geo")
        let first = Self.processes(of: app.processIdentifier, running: "FixtureLive")
        try #require(geo.count == 1 && first.count == 1, "\(geo) \(first)")
        app.write("\(entry)\n")
        try app.waitForOutput(containing: "Build one answers from process \(first[0])")

        try put(TestEnvironment.library("FixtureLiveTwo"), at: library)
        try Self.wait(for: "module 'FixtureLive': now runs its new library", in: app)
        app.write("\(entry)\n")
        try app.waitForOutput(containing: "Build two answers from process")
        // Its sandbox is the new build's: it reads what build two declares.
        #expect(app.stdout.contains("/etc/passwd is read"), "\(app.stdout)")
        // The old one may still be on its way out (a loaded machine): waited for below.
        let second = Self.processes(of: app.processIdentifier, running: "FixtureLive").filter { !first.contains($0) }
        #expect(second.count == 1, "a new process: \(first) → \(second)")
        #expect(Self.processes(of: app.processIdentifier, running: "Geo") == geo, "Geo's process was not started again")
        let deadline = ContinuousClock.now + .seconds(30)
        while kill(first[0], 0) == 0, ContinuousClock.now < deadline { usleep(20_000) }
        #expect(kill(first[0], 0) != 0, "the old process \(first[0]) ended")

        // Not a library: refused, said, and build two goes on answering.
        let garbage = host.folder + "/.garbage"
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: garbage))
        #expect(rename(garbage, library) == 0)
        try Self.wait(for: "is not used: library '\(library)' is not an ELF file", in: app)
        #expect(app.stderr.contains("the running one goes on serving"), "\(app.stderr)")
        app.write("\(entry)\n")
        app.write("q\n")
        let result = try app.wait()
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.components(separatedBy: "Build two answers from process \(second.first ?? 0)").count == 3, "\(result.stdout)")
        #expect(Self.processes(of: app.processIdentifier, running: "FixtureLive").isEmpty)
    }

    /// Puts a copy of `source` at `path` as an installer or a linker does: written beside it,
    /// then renamed over it.
    func put(_ source: String, at path: String) throws {
        let temporary = path + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.copyItem(atPath: source, toPath: temporary)
        #expect(rename(temporary, path) == 0)
    }

    /// The number of Home's entry titled `title` in `output` ("  2. Build one").
    static func number(of title: String, in output: String) -> Int? {
        output.split(separator: "\n").compactMap { line -> Int? in
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[1].trimmingCharacters(in: .whitespaces) == title else { return nil }
            return Int(parts[0])
        }.last
    }

    /// The ids of `parent`'s children that run module `name`'s process.
    static func processes(of parent: Int32, running name: String) -> [Int32] {
        IsolationTests.moduleProcesses(of: parent).filter { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { [UInt8]($0) } ?? []
            return command.split(separator: 0).last.map { String(decoding: $0, as: UTF8.self) } == name
        }
    }

    static func wait(for text: String, in app: RunningProgram) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !app.stderr.contains(text) {
            guard ContinuousClock.now < deadline else {
                Issue.record("not said within 60 s: '\(text)'; it said: \(app.stderr)")
                throw CancellationError()
            }
            usleep(10_000)
        }
    }
}
