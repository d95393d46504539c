import Foundation
import ModuleHostTesting

/// `modhost-bench screen`: the full-screen app on a pseudo-terminal of 100×30, read back
/// through the screen model as it arrives (a blocking read, not a poll):
///
/// - keypress to redrawn screen: a Down or Up on the Settings menu, until the selection shows
///   on its new row (median);
/// - the bytes that move writes, against the cells that changed (the renderer's bound is 2×);
/// - the first screen, full screen, beside the line mode's (`--plain`) in the same rounds;
/// - a keystroke of the filter of a 250-item menu (Rename's "Which city?" with 250 saved
///   cities), until the filtered list shows (median).
struct ScreenBenchmark {
    let rounds: Int
    static let rows = 30
    static let columns = 100

    func run(into report: BenchReport) {
        let modhost = buildFolder + "/modhost"
        let config = writeConfig(["Photos", "Geo", "Settings"], name: "screen")
        let data = NSTemporaryDirectory() + "modhost-bench-screen-data"
        try? FileManager.default.removeItem(atPath: data)
        var environment = ProcessInfo.processInfo.environment
        environment["MODHOST_DATA_DIR"] = data
        environment["TERM"] = "xterm-256color"
        environment["MODHOST_UI"] = nil
        if environment["LANG"] == nil || environment["LANG"] == "C" { environment["LANG"] = "C.UTF-8" }
        environment["LC_ALL"] = nil

        // Keypress to redrawn screen, and the bytes of each move.
        guard let app = Self.home(modhost, config: config, environment: environment, report: report) else { return }
        app.write(Array("3".utf8))
        guard app.read(until: { $0.highlightedLines.contains { $0.contains("My profile") || $0.contains("Language") } }) else {
            report.add("screen", "the app did not open Settings")
            return
        }
        var keypress: [Double] = []
        var ratios: [Double] = []
        var bytes: [Double] = []
        for round in 0..<(rounds * 4) {
            let before = app.screen
            let highlighted = before.highlightedLines
            let key = round % 2 == 0 ? "\u{1B}[B" : "\u{1B}[A"
            let start = now()
            let read = app.readCount
            app.write(Array(key.utf8))
            guard app.read(until: { $0.highlightedLines != highlighted }) else {
                report.add("screen", "a selection move was not drawn")
                return
            }
            keypress.append(Double(now() - start))
            let written = Double(app.readCount - read)
            let changed = Double(Self.changedCells(before, app.screen))
            bytes.append(written)
            ratios.append(written / max(changed, 1))
        }
        app.end()
        report.add("screen: keypress to redrawn screen (100×30, median)", format(milliseconds: median(keypress)))
        report.add(
            "screen: bytes of a one-row selection move",
            String(format: "%.0f bytes, %.2f× the cells that changed", median(bytes), median(ratios)))

        // The first screen, full screen beside the line mode, interleaved.
        var full: [Double] = []
        var plain: [Double] = []
        for _ in 0..<rounds {
            if let time = Self.firstScreen(
                modhost, ["--config", config], environment, { $0.highlightedLines.contains { $0.contains("Photos") } })
            {
                full.append(time)
            }
            if let time = Self.firstScreen(modhost, ["--config", config, "--plain"], environment, { $0.contains("Which one?") }) {
                plain.append(time)
            }
        }
        report.add("screen: first screen, full screen", format(milliseconds: median(full)))
        report.add("screen: first screen, line mode (baseline)", format(milliseconds: median(plain)))
        report.add("screen: first screen, full screen / line mode", String(format: "%.2f×", median(full) / median(plain)))
        filterKeystroke(modhost, config: config, environment: environment, into: report)
    }

    /// 250 cities saved, Places → Rename: the 250-item list; each letter typed (or rubbed out)
    /// filters it, timed until the footer shows the filter with its count.
    func filterKeystroke(_ modhost: String, config: String, environment: [String: String], into report: BenchReport) {
        let towns = ["Sevilla", "Lyon", "Berlin", "Napoli", "Graz", "Porto", "Gent", "Bern", "Oslo", "Turku"]
        let countries = ["ES", "FR", "DE", "IT", "AT", "PT", "BE", "CH", "NO", "FI"]
        for index in 0..<250 {
            _ = timeProcess(
                modhost, ["--config", config, "geo", "add", "--country", countries[index % 10], "--city", "\(towns[index % 10])\(index)"],
                environment: environment)
        }
        let saved = output(of: modhost, ["--config", config, "geo", "list", "--json"], environment: environment)
        guard saved.components(separatedBy: "\"city\":").count - 1 == 250 else {
            report.add("screen", "could not save the 250 cities of the filter benchmark")
            return
        }
        guard let app = Self.home(modhost, config: config, environment: environment, report: report) else { return }
        app.write(Array("2".utf8))
        guard app.read(until: { $0.lines.first?.contains("Places") == true && $0.contains("Add a city") }) else {
            report.add("screen", "the app did not open Places")
            return
        }
        app.write(Array("2".utf8))
        guard app.read(until: { $0.lines.first?.contains("Which city?") == true }) else {
            report.add("screen", "the app did not open Rename's list")
            return
        }
        var times: [Double] = []
        var query = ""
        for round in 0..<(rounds * 6) {
            // Letters typed, then rubbed out, so that each keystroke filters anew.
            let typing = round % 6 < 3
            let letter = Array("lyo")[round % 3]
            if typing { query.append(letter) } else { query.removeLast() }
            let footer = "/" + query + " ("
            let start = now()
            app.write(typing ? Array(String(letter).utf8) : [0x7F])
            guard app.read(until: { $0.lines.last?.contains(footer) == true }) else {
                report.add("screen", "a filter keystroke was not drawn")
                return
            }
            times.append(Double(now() - start))
        }
        app.end()
        report.add("screen: filter keystroke, 250-item menu (median)", format(milliseconds: median(times)))
    }

    /// The app on a pseudo-terminal of the bench's size, once it shows Home full screen; `nil`
    /// (said in `report`) when it does not.
    static func home(_ modhost: String, config: String, environment: [String: String], report: BenchReport) -> PseudoTerminalProgram? {
        guard
            let app = PseudoTerminalProgram(modhost, ["--config", config], environment: environment, rows: rows, columns: columns),
            app.read(until: { $0.highlightedLines.contains { $0.contains("Photos") } })
        else {
            report.add("screen", "the app did not show Home full screen on a pseudo-terminal")
            return nil
        }
        return app
    }

    static func firstScreen(
        _ executable: String, _ arguments: [String], _ environment: [String: String], _ shown: (TerminalScreen) -> Bool
    ) -> Double? {
        let start = now()
        guard let program = PseudoTerminalProgram(executable, arguments, environment: environment, rows: rows, columns: columns),
            program.read(until: shown)
        else { return nil }
        let time = Double(now() - start)
        program.end()
        return time
    }

    /// The cells whose character or attributes differ.
    static func changedCells(_ old: TerminalScreen, _ new: TerminalScreen) -> Int {
        var count = 0
        for row in 0..<rows {
            for column in 0..<columns where old.cell(row: row, column: column) != new.cell(row: row, column: column) { count += 1 }
        }
        return count
    }
}

/// A program on a pseudo-terminal of its own (`/dev/ptmx`; the program starts a session and
/// takes the terminal as its controlling one), its output fed to a screen model as it is read.
final class PseudoTerminalProgram {
    // Linux's values, which Swift's Glibc module does not import (function-like macros, and
    // glibc's posix_spawn flag behind _GNU_SOURCE).
    static let unlockTerminal = UInt(0x4004_5431)  // TIOCSPTLCK
    static let terminalNumber = UInt(0x8004_5430)  // TIOCGPTN
    static let spawnNewSession: Int16 = 0x80  // POSIX_SPAWN_SETSID

    let pid: pid_t
    let master: Int32
    private(set) var screen: TerminalScreen
    /// Every byte read from the program so far.
    private(set) var readCount = 0

    init?(_ executable: String, _ arguments: [String], environment: [String: String], rows: Int, columns: Int) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlocked: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockTerminal, &unlocked) == 0, ioctl(master, Self.terminalNumber, &number) == 0 else {
            return nil
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A new session first, so that opening the terminal makes it the controlling one.
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, argv, envp) == 0 else {
            close(master)
            return nil
        }
        self.pid = pid
        self.master = master
        screen = TerminalScreen(rows: rows, columns: columns)
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until `condition` holds for the screen; `false` after 10 s or at the end.
    func read(until condition: (TerminalScreen) -> Bool) -> Bool {
        let deadline = now() + 10_000_000_000
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !condition(screen) {
            guard now() < deadline else { return false }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1_000) >= 0 || errno == EINTR else { return false }
            guard poller.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            readCount += count
            screen.feed(chunk[..<count])
        }
        return true
    }

    /// Ends the program (SIGTERM) and waits for it.
    func end() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(master)
    }
}
