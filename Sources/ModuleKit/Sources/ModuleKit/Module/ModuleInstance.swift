import Dispatch
import FoundationEssentials
import Synchronization

/// A module behind a type-erased, host-facing interface: what crosses the module boundary
/// after the handshake.
///
/// The host calls its lifecycle from one thread at a time; the lock makes that a guarantee,
/// so a stop requested by a signal never overlaps a start.
public final class ModuleInstance: Sendable {
    /// What the module declares.
    public let manifest: ModuleManifest

    private let lifecycle: Mutex<Lifecycle>

    /// The module's lifecycle calls, bound to its concrete type.
    private struct Lifecycle: @unchecked Sendable {
        // The module object is only touched under the instance's lock.
        let decode: ([UInt8]?) throws -> Any
        let register: (ModuleRegistry, Any) throws -> Void
        let start: (ModuleContext) throws -> Void
        let stop: () -> Void
        let commands: (ModuleContext) -> [ModuleCommand]
        let homeEntries: @MainActor (ModuleContext) -> [HomeEntry]
        let checkResources: () -> [String]
        /// The last configuration decoded, with the JSON it came from: `check` and start-up
        /// validate before they register, and decoding is the costly part of a load.
        var decoded: (json: [UInt8]?, configuration: Any)?

        mutating func configuration(from json: [UInt8]?) throws -> Any {
            if let decoded, decoded.json == json { return decoded.configuration }
            let configuration = try decode(json)
            decoded = (json, configuration)
            return configuration
        }
    }

    /// Wraps `module`. Called inside the module library, after the handshake.
    public init<M: Module>(_ module: M) {
        manifest = M.manifest
        // The module object is reached only through these closures, each called under the
        // instance's lock: one caller at a time, whichever actor it runs on (Home entries on
        // the main actor, the lifecycle on the host's thread). Exercised by
        // `RuntimePhaseTests.whileAModuleBlocksInStart…`, which stops while another thread starts.
        nonisolated(unsafe) let module = module
        lifecycle = Mutex(
            Lifecycle(
                decode: { data in try ModuleInstance.decodeConfiguration(M.Configuration.self, from: data) },
                register: { registry, configuration in
                    guard let configuration = configuration as? M.Configuration else {
                        throw ConfigurationError(message: "configuration of the wrong type for module '\(M.name)'")
                    }
                    try module.register(registry, configuration: configuration)
                },
                start: { context in try module.start(context) },
                stop: { module.stop() },
                commands: { context in module.commands(context) },
                homeEntries: { context in module.homeEntries(context) },
                checkResources: { module.checkResources() }
            ))
    }

    /// Decodes the module's `config` object (JSON, or `nil` when absent) into its
    /// configuration type, without registering anything: what `modhost check` runs.
    ///
    /// - Throws: ``ConfigurationError`` naming the key and the problem.
    @_spi(Host)
    public func validateConfiguration(_ json: [UInt8]?) throws {
        _ = try lifecycle.withLock { try $0.configuration(from: json) }
    }

    /// Decodes the configuration, then registers the module's routes and services.
    @_spi(Host)
    public func register(_ registry: ModuleRegistry, configuration json: [UInt8]?) throws {
        try lifecycle.withLock { lifecycle in
            let configuration = try lifecycle.configuration(from: json)
            try lifecycle.register(registry, configuration)
        }
    }

    @_spi(Host)
    public func start(_ context: ModuleContext) throws {
        try lifecycle.withLock { try $0.start(context) }
    }

    @_spi(Host)
    public func stop() {
        lifecycle.withLock { $0.stop() }
    }

    @_spi(Host)
    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        lifecycle.withLock { $0.commands(context) }
    }

    /// The module's own check of what its configuration names (see
    /// ``Module/checkResources()``): what `modhost check` calls after `register`.
    @_spi(Host)
    public func checkResources() -> [String] {
        lifecycle.withLock { $0.checkResources() }
    }

    @_spi(Host) @MainActor
    public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        lifecycle.withLock { $0.homeEntries(context) }
    }

    static func decodeConfiguration<C: Decodable>(_ type: C.Type, from json: [UInt8]?) throws -> C {
        // No config for a module that takes none: nothing to decode, so skip JSONDecoder.
        if json == nil, let none = NoConfiguration() as? C { return none }
        // Strict: a key the configuration type never reads is an error, not ignored.
        return try StrictDecoding.decode(type, from: Data(json ?? Array("{}".utf8)))
    }
}
