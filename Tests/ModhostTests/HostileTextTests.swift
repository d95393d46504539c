import Foundation
import ModuleHostTesting
import ModuleKitTesting
import TestSupport
import Testing

/// Text from outside reaches the terminal shown, never obeyed: a photo server's answer, a
/// module's configuration value and a file name, in commands, in the line-mode app on a real
/// pseudo-terminal, and in the reports. The only escape sequences written are the kit's own.
@Suite struct HostileTextTests {
    /// What a hostile server puts in every text field: set the window title, clear the screen,
    /// turn red, and reverse the rest of the line.
    static let hostile = #"\u001b]2;pwned\u0007\u001b[2J\u001b[31m\u202e"#

    static func page() -> String {
        let hit =
            #"{"id": 4411, "pageURL": "https://pixabay.example/\#(hostile)", "type": "photo", "tags": "cats\#(hostile)", "#
            + #""previewURL": "https://cdn.example/p.jpg", "previewWidth": 1, "previewHeight": 1, "#
            + #""webformatURL": "https://cdn.example/w.jpg", "webformatWidth": 1, "webformatHeight": 1, "#
            + #""largeImageURL": "https://cdn.example/l.jpg", "imageWidth": 1, "imageHeight": 1, "imageSize": 1, "views": 1, "#
            + #""downloads": 1, "likes": 1, "comments": 1, "user_id": 9, "user": "Lena\#(hostile)", "userImageURL": ""}"#
        return #"{"total": 1, "totalHits": 1, "hits": [\#(hit)]}"#
    }

    func world(_ server: LoopbackHTTPServer) throws -> TestHost {
        let photos = #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "KEY-1234"}"#
        return try TestHost(entries: [("Photos", photos), ("Settings", "")], language: "en")
    }

    /// What the terminal received with the kit's own sequences (SGR bold, colours, reset)
    /// taken out: nothing a terminal obeys may be left.
    static func foreign(in output: String) -> [Unicode.Scalar] {
        // A terminal's line ends are "\r\n"; any other carriage return is foreign.
        var rest = output.replacingOccurrences(of: "\r\n", with: "\n")
        for own in ["\u{1B}[1m", "\u{1B}[31m", "\u{1B}[32m", "\u{1B}[0m"] { rest = rest.replacingOccurrences(of: own, with: "") }
        // C0 but the line's own ends and tabs, DEL, C1, and the bidirectional controls.
        return rest.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @Test func aServersEscapesAreShownOnATerminalInSearchAndShow() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page()) }
        defer { server.stop() }
        let host = try world(server)
        for arguments in [["photos", "search", "cats"], ["photos", "show", "4411"]] {
            let session = try host.app(arguments[0], arguments[1], arguments[2])
            let ended = try session.waitForExit()
            #expect(ended.succeeded, "\(ended)")
            #expect(!session.output.contains("\u{1B}"), "no escape at all in a command's output: \(session.output.debugDescription)")
            #expect(Self.foreign(in: session.output).isEmpty)
            #expect(session.output.contains("?]2;pwned??[2J?[31m?"), "shown, visibly: \(session.output.debugDescription)")
            #expect(session.screen.transcript.contains("pwned"), "the screen was not cleared")
        }
        // A pipe gets the same shown text; --json keeps every character, escaped by JSON.
        let piped = try host.run("photos", "search", "cats")
        #expect(piped.stdout.contains("#4411  cats?]2;pwned??[2J?[31m? — Lena?]2;pwned??[2J?[31m?"), "\(piped.stdout)")
        let json = try host.run("photos", "search", "cats", "--json")
        #expect(json.stdout.contains(#"cats\u001b]2;pwned\u0007\u001b[2J\u001b[31m\u202e"#), "\(json.stdout)")
    }

    @Test func theLineModeAppOnATerminalWritesOnlyItsOwnEscapes() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page()) }
        defer { server.stop() }
        let host = try world(server)
        // In colour, as a person's terminal has it (`swift test` sets NO_COLOR for its children).
        let session = try TerminalProcess.start(
            "exec '\(TestEnvironment.modhost)' --config '\(host.config)'", environment: ["MODHOST_DATA_DIR": host.data],
            unsetting: ["NO_COLOR"])
        // Home: 1 Photos; Photos: 1 Search; the query; the list; back out and quit.
        try session.answer("1")
        try session.answer("1")
        try session.answer("cats")
        _ = try session.waitFor("pwned")
        try session.answer("1")
        _ = try session.waitFor("Tags:")
        for _ in 0..<3 { try session.answer("0") }
        try session.answer("q")
        #expect(try session.waitForExit().succeeded)
        #expect(session.output.contains("\u{1B}[1mPhotos\u{1B}[0m"), "the kit's own bold title: \(session.output.debugDescription)")
        #expect(Self.foreign(in: session.output).isEmpty, "\(session.output.debugDescription)")
        #expect(session.output.contains("Tags: cats?]2;pwned??[2J?[31m?\r\n"), "\(session.output.debugDescription)")
    }

    @Test func aConfigValueWithEscapesIsShownInTheReportAndAbout() throws {
        let host = try TestHost(
            entries: [("Photos", #""config": {"source": "\u001b]2;pwned\u0007\u001b[2J"}"#), ("Settings", "")], language: "en")
        let modules = try host.run("modules")
        #expect(modules.stdout.contains("pwned"), "\(modules.stdout)")
        #expect(Self.foreign(in: modules.stdout + modules.stderr).isEmpty, "\(modules.stdout.debugDescription)")
        // Settings → About, in the line mode on a terminal.
        let session = try host.app()
        try session.answer("1")
        try session.answer("a")
        _ = try session.waitFor("pwned")
        try session.answer("0")
        try session.answer("0")
        try session.answer("q")
        _ = try session.waitForExit()
        #expect(Self.foreign(in: session.output).isEmpty, "\(session.output.debugDescription)")
    }
}
