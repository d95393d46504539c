import ModuleHostTesting
import Testing

/// Notes inside the real host, beside modules it ships with: its commands, what the host says
/// of it, and the app on a real terminal.
@Suite struct NotesInTheHostTests {
    /// A world of its own: a data folder and a modules.json for this test only.
    func world() throws -> TestHost {
        try TestHost(modules: [.shipped("Geo"), .shipped("Settings"), .library(TestHost.builtLibrary("ReadmeNotes"))])
    }

    @Test func itKeepsWhatItIsGiven() throws {
        let host = try world()
        #expect(try host.run("readmenotes", "add", "buy bread").stdout == "Noted.\n")
        #expect(try host.run("readmenotes", "list").stdout == "buy bread\n")
        #expect(try host.module("ReadmeNotes")?.state == "active")
    }

    @Test func aBadLineIsRefusedWithTheUsage() throws {
        let refused = try world().run("readmenotes", "add")
        #expect(refused.status == 2)
        #expect(refused.errorLines.first == "modhost: error: readmenotes add: add needs the note's TEXT")
    }

    @Test func theAppRunsBesideIt() throws {
        let host = try world()
        let app = try host.app(rows: 30, columns: 100)
        try app.choose("Places")
        try app.waitFor("Add a city")
        app.press(.control("c"))
        #expect(try app.waitForExit().signal == nil)
    }
}
