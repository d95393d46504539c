import FoundationEssentials
import Glibc
import HostProcesses

/// What one module cost the start, phase by phase, from the runtime's own clock (not a second
/// start): what `modules --timing` shows.
public struct ModuleTiming: Sendable, Equatable {
    /// Its library found, checked and described (trust, pin, descriptor): no code run.
    public var checks: Duration = .zero
    /// Its library opened and the handshake (its constructors run here).
    public var load: Duration = .zero
    /// Its configuration decoded and its strings read.
    public var configuration: Duration = .zero
    public var register: Duration = .zero
    public var start: Duration = .zero
    /// The resident memory its phases added (bytes), when it was measured.
    public var memory: Int?

    public var total: Duration { checks + load + configuration + register + start }

    /// A moment of the clock (and of the resident memory, when measured), to add what a phase
    /// took since.
    package struct Mark: Sendable {
        let time: ContinuousClock.Instant
        let resident: Int?

        package static func now(measuringMemory: Bool) -> Mark {
            Mark(time: .now, resident: measuringMemory ? Self.residentBytes() : nil)
        }

        /// The process's resident set, from /proc/self/statm.
        static func residentBytes() -> Int? {
            guard let text = ProcFile.read("/proc/self/statm") else { return nil }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
    }

    /// Adds to `phase` what passed since `mark`.
    package mutating func add(_ phase: WritableKeyPath<ModuleTiming, Duration>, since mark: Mark) {
        self[keyPath: phase] += ContinuousClock.now - mark.time
        if let before = mark.resident, let after = Mark.residentBytes() { memory = (memory ?? 0) + max(0, after - before) }
    }
}

extension ModuleTiming {
    /// `duration` in milliseconds, to the microsecond, as `--json` gives it.
    package static func milliseconds(_ duration: Duration) -> Double {
        let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        return microseconds.rounded() / 1000
    }
}

extension ModuleTiming: Encodable {
    private enum CodingKeys: String, CodingKey {
        case checks, load, configuration, register, start, total, memoryBytes
    }

    /// Milliseconds, and bytes (`null` when not measured).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let milliseconds = Self.milliseconds
        try container.encode(milliseconds(checks), forKey: .checks)
        try container.encode(milliseconds(load), forKey: .load)
        try container.encode(milliseconds(configuration), forKey: .configuration)
        try container.encode(milliseconds(register), forKey: .register)
        try container.encode(milliseconds(start), forKey: .start)
        try container.encode(milliseconds(total), forKey: .total)
        try container.encode(memory, forKey: .memoryBytes)
    }
}
