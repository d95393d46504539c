import CPseudoTerminal
import Foundation
import Synchronization

/// A program running on a real pseudo-terminal, as a person runs it in a terminal window: keys
/// typed, the window resized, and what it shows read as a ``TerminalScreen``.
public final class TerminalSession: Sendable {
    public let command: [String]
    public let processIdentifier: Int32
    private let master: Int32
    private let state: Shared<State>
    private let reader = DispatchGroup()

    private struct State: Sendable {
        var screen: TerminalScreen
        /// Every byte the program wrote, for messages and raw checks.
        var written: [UInt8] = []
        var status: Int32?
        /// The reader has put all it read on the screen and waits for more.
        var readerIdle = true
        /// The program's voluntary context switches when input was last typed: it has taken
        /// that input once it has blocked again since.
        var switchesAtInput: Int?
    }

    /// Starts `command` on a terminal of `rows` by `columns`.
    ///
    /// - Throws: ``HostTestingError/cannotStart(command:reason:)``.
    public init(_ command: [String], environment: [String: String], rows: Int = 24, columns: Int = 80, directory: String? = nil) throws {
        self.command = command
        guard let executable = command.first else { throw HostTestingError.cannotStart(command: command, reason: "no command") }
        var argv = CStrings(command)
        var envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        var master: Int32 = -1
        let pid = mht_spawn_on_pty(executable, &argv.pointers, &envp.pointers, Int32(rows), Int32(columns), directory, &master)
        guard pid > 0 else {
            throw HostTestingError.cannotStart(command: command, reason: String(cString: strerror(errno)))
        }
        processIdentifier = pid
        self.master = master
        let descriptor = master
        state = Shared(State(screen: TerminalScreen(rows: rows, columns: columns)))
        reader.enter()
        DispatchQueue.global().async { [state, reader] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                // Busy from the moment there is something to read until it is on the screen, so
                // that `waitForInput` never sees output half taken.
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, -1) < 0 && errno == EINTR { continue }
                state.value.withLock { $0.readerIdle = false }
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                // EIO: every process holding the terminal's other side has ended.
                if count <= 0 { break }
                state.value.withLock {
                    $0.written += chunk[..<count]
                    $0.screen.feed(chunk[..<count])
                    $0.readerIdle = true
                }
            }
            reader.leave()
        }
    }

    /// What the terminal shows now.
    public var screen: TerminalScreen { state.value.withLock { $0.screen } }

    /// Everything the program wrote, as text.
    public var output: String { state.value.withLock { String(decoding: $0.written, as: UTF8.self) } }

    /// Types `text`, as a person would (no Enter unless it holds a newline).
    public func type(_ text: String) {
        send(Array(text.replacingOccurrences(of: "\n", with: "\r").utf8))
    }

    /// Presses `key`.
    public func press(_ key: Key) { send(key.bytes) }

    /// A turn of the mouse wheel, one notch.
    public enum Wheel: Sendable { case up, down }

    /// Clicks the main mouse button on the cell at `row`, `column` (from 0), as a terminal
    /// reports it to a program that asked for mouse reports (xterm's SGR form: the press, then
    /// the release). A program that did not ask reads it as unknown keys.
    public func click(row: Int, column: Int) {
        send(Array("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m".utf8))
    }

    /// Clicks where the screen first shows `text`.
    ///
    /// - Throws: ``HostTestingError/screenNeverShowed(text:seconds:screen:)`` when it does not
    ///   show it now.
    public func click(on text: String) throws {
        let screen = self.screen
        for (row, line) in screen.lines.enumerated() {
            guard let range = line.range(of: text) else { continue }
            // Cells, not characters: a wide character before the text takes two.
            let column = line[..<range.lowerBound].reduce(0) { cells, character in
                cells + (character.unicodeScalars.first.map(TerminalScreen.isWide) == true ? 2 : 1)
            }
            click(row: row, column: column)
            return
        }
        throw HostTestingError.screenNeverShowed(text: text, seconds: 0, screen: screen.transcript)
    }

    /// Turns the mouse wheel one notch over the cell at `row`, `column`.
    public func wheel(_ direction: Wheel, row: Int = 0, column: Int = 0) {
        send(Array("\u{1B}[<\(direction == .up ? 64 : 65);\(column + 1);\(row + 1)M".utf8))
    }

    /// Types `text`, then presses Enter.
    public func enter(_ text: String) {
        type(text)
        press(.enter)
    }

    /// Waits until the program waits for what a person types (it is blocked reading its
    /// terminal) and everything it wrote before is on the screen: the moment a person would
    /// answer. Deterministic, not a pause: it asks the kernel what the program does.
    ///
    /// - Throws: ``HostTestingError/screenNeverShowed(text:seconds:screen:)`` when it does not
    ///   within `timeout`, or the program ends first.
    public func waitForInput(timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        while !isWaitingForInput {
            if ContinuousClock.now > deadline || hasEnded {
                throw HostTestingError.screenNeverShowed(text: "a prompt", seconds: timeout.seconds, screen: screen.transcript)
            }
            usleep(1_000)
        }
    }

    /// Waits for the program to ask, then types `text` and Enter: one answer of a person.
    public func answer(_ text: String, timeout: Duration = .seconds(30)) throws {
        try waitForInput(timeout: timeout)
        enter(text)
    }

    /// The program's main thread is in `read` on its standard input (or, full screen, waits in
    /// `poll` with no time limit), has blocked again since the last input was typed (so it took
    /// that input: right after a write it still shows the read it is about to return from), and
    /// nothing it wrote before it blocked is left unread.
    private var isWaitingForInput: Bool {
        guard state.value.withLock({ $0.readerIdle }) else { return false }
        if let mark = state.value.withLock({ $0.switchesAtInput }) {
            guard let now = voluntarySwitches, now > mark else { return false }
        }
        // Everything sent was read: two sends in a row can otherwise look taken when the
        // program blocked between them (in the line mode only whole lines count here).
        guard unreadInput == 0 else { return false }
        // "0 0x0 …": system call 0 (read) on descriptor 0 (x86_64); 63 on aarch64.
        guard let call = try? String(contentsOfFile: "/proc/\(processIdentifier)/syscall", encoding: .utf8) else { return false }
        let fields = call.split(separator: " ")
        guard fields.count > 3 else { return false }
        // A line read: `read` on descriptor 0. A full-screen program waits for a key (or a
        // resize) in `poll`/`ppoll` without a time limit, then reads what came.
        #if arch(arm64)
            let (readCall, pollCall, ppollCall) = ("63", "", "73")
        #else
            let (readCall, pollCall, ppollCall) = ("0", "7", "271")
        #endif
        let reading = fields[0] == readCall && fields[1] == "0x0"
        let polling =
            (fields[0] == pollCall && ["0xffffffffffffffff", "0xffffffff"].contains(fields[3]))
            || (fields[0] == ppollCall && fields[3] == "0x0")
        return (reading || polling) && !hasOutputToRead && state.value.withLock { $0.readerIdle }
    }

    /// Whether the program's output is waiting on the master's side, asked once the program is
    /// known to be blocked. What it wrote just before it blocked can still be in the terminal's
    /// flip buffer, which a kernel worker moves to the master a moment later; `FIONREAD` does
    /// not count it, so the old screen looked final. A `poll` finishes that move first.
    private var hasOutputToRead: Bool {
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0 && ready.revents & Int16(POLLIN) != 0
    }

    /// Waits for a menu entry titled `title`, then chooses it by its number, as a person does in
    /// line mode.
    ///
    /// - Throws: ``HostTestingError/screenNeverShowed(text:seconds:screen:)``.
    public func choose(_ title: String, timeout: Duration = .seconds(30)) throws {
        let screen = try waitUntil(timeout: timeout, describing: "a menu entry '\(title)'") { $0.menuNumber(of: title) != nil }
        enter(screen.menuNumber(of: title) ?? "")
    }

    /// Resizes the terminal window; the program gets SIGWINCH.
    public func resize(rows: Int, columns: Int) {
        state.value.withLock { $0.screen.resize(rows: rows, columns: columns) }
        _ = mht_set_size(master, Int32(rows), Int32(columns))
    }

    /// Sends `signal` to the program.
    public func send(signal: Int32) { kill(processIdentifier, signal) }

    /// Waits until the screen shows `text` (on one row), and returns the screen.
    ///
    /// - Throws: ``HostTestingError/screenNeverShowed(text:seconds:screen:)`` with the screen as
    ///   it was, when it does not within `timeout` or the program ends first.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration = .seconds(30)) throws -> TerminalScreen {
        try waitUntil(timeout: timeout, describing: text) { $0.contains(text) }
    }

    /// Waits until `condition` holds for the screen, and returns the screen.
    @discardableResult
    public func waitUntil(
        timeout: Duration = .seconds(30), describing what: String = "what was asked", _ condition: (TerminalScreen) -> Bool
    ) throws -> TerminalScreen {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = self.screen
            if condition(screen) { return screen }
            // Ended and read to the end: the screen will not change any more.
            let settled = hasEnded && reader.wait(timeout: .now()) == .success
            if ContinuousClock.now > deadline || (settled && !condition(self.screen)) {
                throw HostTestingError.screenNeverShowed(text: what, seconds: timeout.seconds, screen: self.screen.transcript)
            }
            usleep(2_000)
        }
    }

    /// Waits for the program to end and returns how, with the screen's transcript as its output.
    ///
    /// - Throws: ``HostTestingError/timedOut(command:seconds:output:)`` when it has not ended
    ///   within `timeout`; it is killed.
    public func waitForExit(timeout: Duration = .seconds(30)) throws -> CommandResult {
        let deadline = ContinuousClock.now + timeout
        while !hasEnded {
            if ContinuousClock.now > deadline {
                kill(processIdentifier, SIGKILL)
                throw HostTestingError.timedOut(command: command, seconds: timeout.seconds, output: screen.transcript)
            }
            usleep(2_000)
        }
        _ = reader.wait(timeout: .now() + 5)
        let code = state.value.withLock { $0.status } ?? 0
        let signal = code & 0x7f
        return CommandResult(
            command: command, status: signal == 0 ? (code >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal, stdout: output,
            stderr: "")
    }

    /// Whether the program has ended (reaped once).
    public var hasEnded: Bool {
        state.value.withLock { state in
            if state.status == nil {
                var status: Int32 = 0
                if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { state.status = status }
            }
            return state.status != nil
        }
    }

    /// Bytes sent that the program has not read yet, asked of the terminal's own side; 0 when
    /// it cannot be asked.
    private var unreadInput: Int32 {
        withProgramSide { side in
            var unread: Int32 = 0
            return ioctl(side, UInt(FIONREAD), &unread) == 0 ? unread : 0
        } ?? 0
    }

    /// `body` with the program's side of the terminal opened (briefly; never its controlling
    /// terminal), or `nil` when it cannot be opened.
    private func withProgramSide<Result>(_ body: (Int32) -> Result) -> Result? {
        var number: UInt32 = 0
        // TIOCGPTN: the number of this master's /dev/pts side (a macro Swift does not import).
        guard ioctl(master, UInt(0x8004_5430), &number) == 0 else { return nil }
        let side = open("/dev/pts/\(number)", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard side >= 0 else { return nil }
        defer { close(side) }
        return body(side)
    }

    /// The bytes the program has read so far, from any file (`rchar` in /proc).
    private var bytesRead: Int? {
        guard let io = try? String(contentsOfFile: "/proc/\(processIdentifier)/io", encoding: .utf8),
            let line = io.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") })
        else { return nil }
        return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Whether the program could see `bytes` once the kernel hands them over: in the line
    /// mode only a whole line is, and a key the terminal turns into a signal never is.
    private func isReadable(_ bytes: [UInt8]) -> Bool {
        guard
            let settings = withProgramSide({ side -> termios? in
                var settings = termios()
                return tcgetattr(side, &settings) == 0 ? settings : nil
            }), let settings
        else { return false }
        // Ctrl-C, Ctrl-\, Ctrl-Z with ISIG; in the line mode, Enter ends a line.
        let signals: Set<UInt8> = settings.c_lflag & tcflag_t(ISIG) != 0 ? [0x03, 0x1C, 0x1A] : []
        let kept = bytes.filter { !signals.contains($0) }
        if settings.c_lflag & tcflag_t(ICANON) == 0 { return !kept.isEmpty }
        return kept.contains(0x0A) || kept.contains(0x0D)
    }

    /// How many times the program's main thread has blocked, from /proc.
    private var voluntarySwitches: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/task/\(processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
        else { return nil }
        return Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
    }

    private func send(_ bytes: [UInt8]) {
        let switches = voluntarySwitches
        state.value.withLock { $0.switchesAtInput = switches }
        let readBefore = bytesRead
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
        // The kernel hands what the master was given to the program's side a moment later (a
        // worker flushes the terminal's buffer). Until then the program still looks idle, so
        // a wait for input right after this send could end before the keys arrived: wait
        // until they are there to read, or were read. Bounded; a program that reads nothing
        // only costs the bound.
        guard isReadable(bytes), let readBefore else { return }
        let limit = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < limit, !hasEnded {
            if unreadInput > 0 { return }
            if let read = bytesRead, read > readBefore { return }
            usleep(200)
        }
    }

    deinit {
        if !hasEnded {
            kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            waitpid(processIdentifier, &status, 0)
        }
        _ = reader.wait(timeout: .now() + 5)
        close(master)
    }
}
