import ModuleKit

/// One module as the host reports it: `modhost modules`, `check`, the About route.
public struct ModuleReport: Sendable, Equatable {
    public let name: String
    public var state: ModuleState

    public init(name: String, state: ModuleState) {
        self.name = name
        self.state = state
    }

    /// Why the module is not active; `nil` when active. Said in the person's language where
    /// the host has a translation (``reason`` is its English, as `modules --json` reports it).
    /// Redacted when it is set: it reaches `modules`, `--json`, `check` and About.
    var reasonText: HostText? {
        didSet { reasonText = reasonText?.redacted() }
    }
    /// Why the module is not active, in English; `nil` when active.
    public var reason: String? {
        get { reasonText?.description }
        set { reasonText = newValue.map(HostText.plain) }
    }
    /// What the library reports; `nil` when it was not loaded.
    public var version: String?
    /// The ModuleKit SDK version the library was built with; `nil` when unknown.
    public var sdk: String?
    /// The library's resolved path; `nil` for a disabled module.
    public var library: String?
    public var provides: [String] = []
    public var requires: [String] = []
    public var uses: [String] = []
    /// The library's SHA-256, when it was computed (`modules --json`, or a `sha256` pin).
    public var sha256: String?
}

extension ModuleReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, state, reason, version, sdk, library, sha256, provides, requires, uses
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
    }
}
