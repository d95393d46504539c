import CPseudoTerminal
import Foundation
import Synchronization

/// A program a test started with pipes for its standard streams: what it writes is collected
/// as it arrives, and every wait has a time limit after which it is killed and the test is told
/// which command hung.
public final class RunningProgram: Sendable {
    public let command: [String]
    public let processIdentifier: Int32
    private let input: Mutex<Int32>
    /// Standard output and standard error so far, filled by the reader threads.
    private let output = Shared(([UInt8](), [UInt8]()))
    private let ended = Mutex<Int32?>(nil)
    private let readers = DispatchGroup()

    /// Starts `command` (its first element is the executable's path).
    ///
    /// - Throws: ``HostTestingError/cannotStart(command:reason:)``.
    public init(_ command: [String], environment: [String: String], directory: String? = nil) throws {
        self.command = command
        guard let executable = command.first else { throw HostTestingError.cannotStart(command: command, reason: "no command") }
        var descriptors: [Int32] = [-1, -1, -1]
        var argv = CStrings(command)
        var envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        let pid = mht_spawn_piped(executable, &argv.pointers, &envp.pointers, directory, &descriptors)
        guard pid > 0 else {
            throw HostTestingError.cannotStart(command: command, reason: String(cString: strerror(errno)))
        }
        processIdentifier = pid
        input = Mutex(descriptors[0])
        for (descriptor, isError) in [(descriptors[1], false), (descriptors[2], true)] {
            readers.enter()
            DispatchQueue.global().async { [output, readers] in
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    output.value.withLock { if isError { $0.1 += chunk[..<count] } else { $0.0 += chunk[..<count] } }
                }
                close(descriptor)
                readers.leave()
            }
        }
    }

    /// Writes `text` to its standard input.
    public func write(_ text: String) { write(bytes: Array(text.utf8)) }

    /// Writes `bytes` to its standard input (anything, not only UTF-8).
    public func write(bytes: [UInt8]) {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Closes its standard input: it reads end of file.
    public func closeInput() {
        input.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// What it wrote to standard output so far.
    public var stdout: String { output.value.withLock { String(decoding: $0.0, as: UTF8.self) } }

    /// What it wrote to standard error so far.
    public var stderr: String { output.value.withLock { String(decoding: $0.1, as: UTF8.self) } }

    /// Sends `signal` to it.
    public func send(_ signal: Int32) { kill(processIdentifier, signal) }

    /// Waits until standard output contains `text`.
    ///
    /// - Throws: ``HostTestingError/timedOut(command:seconds:output:)`` when it does not within
    ///   `timeout`, or ends first (the program is then killed).
    public func waitForOutput(containing text: String, timeout: Duration = .seconds(60)) throws {
        let deadline = ContinuousClock.now + timeout
        while !stdout.contains(text) {
            if ContinuousClock.now > deadline || poll() != nil {
                kill(processIdentifier, SIGKILL)
                throw HostTestingError.timedOut(command: command, seconds: timeout.seconds, output: stdout + stderr)
            }
            usleep(5_000)
        }
    }

    /// Waits for it to end and returns how, with everything it wrote.
    ///
    /// - Throws: ``HostTestingError/timedOut(command:seconds:output:)`` when it has not ended
    ///   within `timeout`; it is killed (its whole process group).
    public func wait(timeout: Duration = .seconds(60)) throws -> CommandResult {
        let deadline = ContinuousClock.now + timeout
        var status = poll()
        while status == nil {
            if ContinuousClock.now > deadline {
                kill(-processIdentifier, SIGKILL)
                kill(processIdentifier, SIGKILL)
                _ = try? wait(timeout: .seconds(5))
                throw HostTestingError.timedOut(command: command, seconds: timeout.seconds, output: stdout + stderr)
            }
            usleep(2_000)
            status = poll()
        }
        closeInput()
        readers.wait()
        let code = status ?? 0
        let signal = code & 0x7f
        return CommandResult(
            command: command, status: signal == 0 ? (code >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal, stdout: stdout,
            stderr: stderr)
    }

    /// Its wait status once it has ended (reaped once, remembered).
    private func poll() -> Int32? {
        ended.withLock { ended in
            if ended == nil {
                var status: Int32 = 0
                if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { ended = status }
            }
            return ended
        }
    }

    deinit {
        if poll() == nil {
            kill(processIdentifier, SIGKILL)
            _ = try? wait(timeout: .seconds(5))
        }
        closeInput()
    }
}

/// Strings as the NULL-terminated array of C strings `execve` takes, freed with it.
struct CStrings: ~Copyable {
    var pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) { pointers = strings.map { strdup($0) } + [nil] }

    deinit { pointers.forEach { free($0) } }
}

/// A lock-guarded value that reader threads and the test share; a class, so a reader can hold
/// it without holding the program (whose `deinit` stops a program the test let go).
final class Shared<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
}

extension Duration {
    /// In seconds, for messages.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
