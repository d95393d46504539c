import Contracts
import HostGraph
import HostModel
import ModuleKit

/// One module as the host reports it: `modhost modules`, `check`, the About route.
public struct ModuleReport: Sendable, Equatable {
    public let name: String
    /// Where the module stands, with the reason exactly when it is not active. Redacted when
    /// it is set: the reason reaches `modules`, `--json`, `check` and About.
    package internal(set) var outcome: Outcome {
        didSet { outcome = outcome.redacted() }
    }

    init(name: String, outcome: Outcome) {
        self.name = name
        self.outcome = outcome.redacted()
    }

    /// A module's state and, when it is not active, why: said in the person's language where
    /// the host has a translation (``reason`` is its English, as `modules --json` reports it).
    package enum Outcome: Sendable, Equatable {
        case active
        case disabled(HostText)
        case failed(HostText)
        case skipped(HostText)

        /// A module that must not start, in `state` (never `.active`) for `reason`.
        init(_ state: ModuleState, _ reason: HostText) {
            switch state {
            case .disabled: self = .disabled(reason)
            case .skipped: self = .skipped(reason)
            // A state this host does not know (a later SDK's) cannot start either.
            case .failed, .active: self = .failed(reason)
            @unknown default: self = .failed(reason)
            }
        }

        var state: ModuleState {
            switch self {
            case .active: .active
            case .disabled: .disabled
            case .failed: .failed
            case .skipped: .skipped
            }
        }

        var reason: HostText? {
            switch self {
            case .active: nil
            case .disabled(let reason), .failed(let reason), .skipped(let reason): reason
            }
        }

        fileprivate func redacted() -> Outcome {
            switch self {
            case .active: .active
            case .disabled(let reason): .disabled(reason.redacted())
            case .failed(let reason): .failed(reason.redacted())
            case .skipped(let reason): .skipped(reason.redacted())
            }
        }
    }

    public var state: ModuleState { outcome.state }
    /// Why the module is not active; `nil` exactly when it is.
    package var reasonText: HostText? { outcome.reason }
    /// Why the module is not active, in English; `nil` exactly when it is.
    public var reason: String? { reasonText?.description }
    /// From the library's descriptor; `nil` when its file was not found or read.
    public var version: String?
    /// The ModuleKit SDK version the library was built with; `nil` when unknown.
    public var sdk: String?
    /// The library's resolved path; `nil` for a disabled module.
    public var library: String?
    public var provides: [String] = []
    public var requires: [String] = []
    public var uses: [String] = []
    /// The commands its manifest declares, from its descriptor (not in `--json`).
    package var commands: [DeclaredCommand]?
    /// The library's SHA-256, when it was computed (`modules --json`, or a `sha256` pin).
    public var sha256: String?
    /// What it cost each phase of the start it came through.
    public var timing: ModuleTiming?
    /// Where it runs: in the host's process, or in one of its own.
    public var isolation: ModuleIsolation = .none
    /// What it needs of its sandbox there (`"sandbox"` in modules.json).
    public var sandbox: SandboxRequirement = .bestEffort
    /// Its own process's id, when it runs in one.
    public var processID: Int32?
    /// What it may reach in a sandbox of its own beyond its data folder: what its manifest
    /// declares, less what modules.json denies.
    public var capabilities = ModuleCapabilities()
    /// The route calls the host sent it in its process so far, by member (`modules --timing`).
    public var calls: [RouteCalls] = []
}

/// The calls of one member of an isolated module's route: how many, and their median and
/// 99th percentile from the call to its answer.
public struct RouteCalls: Sendable, Equatable {
    /// `GeoRoute.savedCities()`.
    public let member: String
    public let count: Int
    public let p50: Duration
    public let p99: Duration
}

extension ModuleReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, state, reason, version, sdk, library, sha256, provides, requires, uses, timing, isolation, processID, capabilities
    }

    /// The stable `modhost modules --json` shape: every key always present, `null` when unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
        try container.encode(version, forKey: .version)
        try container.encode(sdk, forKey: .sdk)
        try container.encode(library, forKey: .library)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(provides, forKey: .provides)
        try container.encode(requires, forKey: .requires)
        try container.encode(uses, forKey: .uses)
        try container.encode(timing, forKey: .timing)
        try container.encode(isolation.rawValue, forKey: .isolation)
        try container.encode(processID, forKey: .processID)
        try container.encode(capabilities.words, forKey: .capabilities)
    }
}
