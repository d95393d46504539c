import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A screen that one module's route presents for another (Geo's city picker, from Photos' menu)
/// shows where and when it would in one process, whichever of the two runs in a process of its
/// own: the picker first, then what its completion presents, then back — the same lines as with
/// no process of its own, in the line mode and full screen.
@Suite struct PresentedAcrossProcessesTests {
    static let isolations: [[String]] = [["--isolate", "Geo"], ["--isolate", "Photos"], ["--isolate", "Photos", "--isolate", "Geo"]]

    func host() throws -> TestHost {
        let host = try TestHost(entries: [("Photos", #""config": {"source": "catalog", "perPage": 3}"#), ("Geo", ""), ("Settings", "")])
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "Lyon").succeeded)
        return host
    }

    @Test(arguments: isolations)
    func thePickerAndWhatItLeadsToReadAsInOneProcess(isolation: [String]) throws {
        let host = try host()
        // Photos, a saved place, Lyon, its photos, back, back, quit; then a quit in the picker.
        for input in ["1\n2\n1\n0\n0\nq\n", "1\n2\n0\n0\nq\n", "1\n2\nq\n", "1\n2\n1\nq\n"] {
            let alone = try host.run(arguments: [], input: input)
            let isolated = try host.run(arguments: isolation, input: input)
            #expect(alone.succeeded && isolated.succeeded, "\(isolated)")
            #expect(isolated.stdout == alone.stdout, "\(isolation) with \(input.debugDescription): \(isolated)")
            #expect(!isolated.stderr.contains("unavailable"), "\(isolated)")
        }
        let walked = try host.run(arguments: isolation, input: "1\n2\n1\n0\n0\nq\n")
        #expect(walked.stdout.contains("Which city?\n===========\n  1. Lyon, France"), "\(walked)")
        #expect(walked.stdout.contains("Photos of “Lyon”"), "\(walked)")
    }

    /// Keys typed faster than the screens come go with the terminal from one process to the
    /// other and back: "12" at Home (one write, so the host reads both before it lends the
    /// terminal to Photos) opens the picker; Escape, Escape, "2" in Photos' process leave it
    /// and open Places from Home — as in one process. The breadcrumb goes with the terminal
    /// too: each screen reads from Home, whichever process draws it.
    @Test(arguments: isolations + [[]])
    func keysTypedAheadGoWithTheTerminal(isolation: [String]) throws {
        let host = try host()
        let app = try host.app(arguments: isolation, rows: 24, columns: 100, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.contains("Places") }
        app.type("12")
        try app.waitUntil(describing: "the picker, after 1 and 2 typed at once") {
            $0.isAlternate && $0.contains("Lyon, France") && $0.contains("Home › Photos › Which city?")
        }
        app.type("1")
        try app.waitUntil(describing: "the photos of Lyon") {
            $0.isAlternate && $0.contains("Camille") && $0.contains("Home › Photos › Photos of “Lyon”")
        }
        app.type("\u{1B}\u{1B}2")
        try app.waitUntil(describing: "Places, after Escape, Escape and 2 typed at once") {
            $0.isAlternate && $0.contains("France (FR)") && !$0.contains("Camille") && $0.contains("Home › Places")
        }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    @Test func fullScreenWithBothInProcessesOfTheirOwn() throws {
        let host = try host()
        let app = try host.app("--isolate", "Photos", "--isolate", "Geo", rows: 24, columns: 100, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.contains("Places") }
        app.type("1")
        try app.waitUntil(describing: "Photos' menu, from its process") { $0.isAlternate && $0.contains("Photos of a saved place") }
        app.type("2")
        try app.waitUntil(describing: "Geo's picker, from Geo's process") { $0.isAlternate && $0.contains("Lyon, France") }
        app.type("1")
        try app.waitUntil(describing: "the photos of Lyon, from Photos' process") { $0.isAlternate && $0.contains("Camille") }
        app.press(.escape)
        try app.waitUntil(describing: "Photos' menu again") { $0.isAlternate && $0.contains("Search photos") && !$0.contains("Camille") }
        app.press(.escape)
        try app.waitUntil(describing: "Home again") { $0.isAlternate && $0.contains("Places") && !$0.contains("Search photos") }
        app.type("1")
        app.type("2")
        try app.waitUntil(describing: "the picker once more") { $0.isAlternate && $0.contains("Lyon, France") }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }
}
