import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The screen model against a real terminal emulator: each byte stream is written to a tmux
/// pane of the same size (raw, no output processing) and what tmux shows, `capture-pane`, must
/// be the text grid the model makes of the same bytes.
@Suite(.serialized) struct TmuxCrossCheckTests {
    static let streams: [(String, String)] = [
        ("lines that scroll", (1...40).map { "line \($0) of a log" }.joined(separator: "\r\n")),
        ("a line that wraps", String(repeating: "0123456789", count: 9) + "\r\nnext"),
        ("exactly full, then CR LF", String(repeating: "x", count: 40) + "\r\n" + "y"),
        (
            "cursor moves and overwrites",
            "hello world\u{1B}[1;7HWORLD\u{1B}[5;10Hat 5,10\u{1B}[3Cright\u{1B}[2Aup\u{1B}[1Bdown\u{1B}[8Gcol8\u{1B}[12dline 12"
        ),
        ("erase in line", "abcdefghij\u{1B}[1;4H\u{1B}[K\r\nabcdefghij\u{1B}[2;4H\u{1B}[1K\r\nabcdefghij\u{1B}[3;4H\u{1B}[2K"),
        ("erase in display", "one\r\ntwo\r\nthree\r\nfour\u{1B}[2;2H\u{1B}[J\u{1B}[1;1H\u{1B}[1J"),
        ("clear and home", "old text\r\nmore\u{1B}[H\u{1B}[2Jnew"),
        (
            "insert and delete characters",
            "abcdefgh\u{1B}[1;3H\u{1B}[2@XY\u{1B}[2;1Habcdefgh\u{1B}[2;3H\u{1B}[3P\u{1B}[3;1Habcdef\u{1B}[3;2H\u{1B}[2X"
        ),
        ("insert and delete lines", "1\r\n2\r\n3\r\n4\r\n5\u{1B}[2;1H\u{1B}[2L\u{1B}[6;1H\u{1B}[M"),
        (
            "a scroll region",
            "header\u{1B}[2;6r\u{1B}[6;1H" + (1...9).map { "row \($0)" }.joined(separator: "\r\n") + "\u{1B}[r\u{1B}[8;1Hfooter"
        ),
        ("reverse index at the top", "a\r\nb\r\nc\u{1B}[1;1H\u{1B}M\u{1B}Mtop"),
        (
            "the alternate screen, shown",
            "main text\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[7m Title \u{1B}[0m\u{1B}[3;3H> item\u{1B}[24;1Hkeys"
        ),
        ("the alternate screen, left", "main text\r\nsecond\u{1B}[?1049h\u{1B}[Hfull\u{1B}[?1049lback"),
        ("tabs and backspace", "a\tb\tc\r\n12345678\tx\r\nabc\u{08}\u{08}Z"),
        (
            "attributes do not change the text",
            "\u{1B}[1mbold\u{1B}[22m \u{1B}[4munder\u{1B}[24m \u{1B}[38;5;202mcolour\u{1B}[38;2;1;2;3mrgb\u{1B}[0m"
        ),
        ("sequences that draw nothing", "\u{1B}]0;a title\u{07}\u{1B}[?25l\u{1B}[?2004hshown\u{1B}(B\u{1B}[?25h"),
        ("accents and Greek", "Français, Ελληνικά, café\r\nΓλώσσα: Ελληνικά"),
        ("wide and combining characters", "日本語のテキスト\r\ne\u{301}le\u{300}ve"),
        ("save and restore the cursor", "start\u{1B}7\u{1B}[5;5Hfar\u{1B}8 back\u{1B}[s\u{1B}[10;1Hlow\u{1B}[u!"),
    ]

    @Test(arguments: streams.map(\.0))
    func tmuxShowsWhatTheModelShows(name: String) throws {
        let stream = try #require(Self.streams.first { $0.0 == name }?.1)
        try Self.crossCheck(Array(stream.utf8), rows: 24, columns: 80)
    }

    /// What the real host writes on a terminal, taken from a pseudo-terminal run of the app.
    @Test func theHostsOwnOutputToo() throws {
        let host = try TestHost(modules: [.shipped("Geo"), .shipped("Settings")], executable: TestEnvironment.modhost)
        let app = try host.app(rows: 24, columns: 80)
        try app.waitFor("Home")
        app.enter("q")
        _ = try app.waitForExit()
        try Self.crossCheck(Array(app.output.utf8), rows: 24, columns: 80)
    }

    /// Writes `bytes` in a tmux pane of `rows` by `columns` and compares its screen with the
    /// model's.
    static func crossCheck(_ bytes: [UInt8], rows: Int, columns: Int) throws {
        let folder = try TestEnvironment.temporaryFolder()
        let file = folder + "/stream"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try Data("set -g status off\nset -g history-limit 0\n".utf8).write(to: URL(fileURLWithPath: folder + "/tmux.conf"))
        let socket = "modhost-check-\(UUID().uuidString.prefix(8))"
        let tmux = try #require(["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) })
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ChildProcess.run(tmux, ["-L", socket, "-f", folder + "/tmux.conf"] + arguments, deadline: 30)
        }
        defer { _ = try? run(["kill-server"]) }
        let script = "stty raw -echo -opost; cat '\(file)'; tmux -L \(socket) wait-for -S written; sleep 60"
        let started = try run(["new-session", "-d", "-s", "check", "-x", "\(columns)", "-y", "\(rows)", script])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(try run(["wait-for", "written"]).status == 0)
        // The pane is read by tmux's server as it comes: the same screen twice is all of it.
        var captured = try run(["capture-pane", "-p", "-t", "check"])
        for _ in 0..<50 {
            usleep(50_000)
            let again = try run(["capture-pane", "-p", "-t", "check"])
            if again.stdout == captured.stdout { break }
            captured = again
        }
        var tmuxLines = captured.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        if tmuxLines.last == "" { tmuxLines.removeLast() }
        var model = TerminalScreen(rows: rows, columns: columns)
        model.feed(bytes)
        #expect(tmuxLines.count == rows, "tmux showed \(tmuxLines.count) rows")
        #expect(model.lines == tmuxLines, "model:\n\(model.lines.joined(separator: "\n"))\ntmux:\n\(tmuxLines.joined(separator: "\n"))")
    }
}
