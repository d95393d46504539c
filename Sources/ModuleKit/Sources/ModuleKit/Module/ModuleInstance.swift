import Foundation
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
                homeEntries: { context in module.homeEntries(context) }
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

    @_spi(Host) @MainActor
    public func homeEntries(_ context: ModuleContext) -> [HomeEntry] {
        lifecycle.withLock { $0.homeEntries(context) }
    }

    static func decodeConfiguration<C: Decodable>(_ type: C.Type, from json: [UInt8]?) throws -> C {
        // No config for a module that takes none: nothing to decode, so skip JSONDecoder.
        if json == nil, let none = NoConfiguration() as? C { return none }
        do {
            // Strict: a key the configuration type never reads is an error, not ignored.
            return try StrictDecoding.decode(type, from: Data(json ?? Array("{}".utf8)))
        } catch let error as DecodingError {
            throw ConfigurationError(decoding: error)
        }
    }
}

/// A module's `config` object could not be decoded into its configuration type.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty
                ? "config" : "config." + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            message = "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            message = "\(path(context.codingPath)) has the wrong type: expected \(Self.plainWords(for: type))"
        case .valueNotFound(let type, let context):
            message = "\(path(context.codingPath)) is null: expected \(Self.plainWords(for: type))"
        case .dataCorrupted(let context):
            message = "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            message = "config: \(error)"
        }
    }

    public var description: String { message }

    /// What a value of `type` is, as an operator writes it in JSON, not as Swift names it:
    /// "a whole number from 0 to 255" for `UInt8`, "text" for `String`.
    static func plainWords(for type: Any.Type) -> String {
        func whole<T: FixedWidthInteger>(_: T.Type) -> String { "a whole number from \(T.min) to \(T.max)" }
        switch type {
        case is Int.Type, is Int64.Type: return "a whole number"
        case is Int8.Type: return whole(Int8.self)
        case is Int16.Type: return whole(Int16.self)
        case is Int32.Type: return whole(Int32.self)
        case is UInt.Type, is UInt64.Type: return "a whole number from 0"
        case is UInt8.Type: return whole(UInt8.self)
        case is UInt16.Type: return whole(UInt16.self)
        case is UInt32.Type: return whole(UInt32.self)
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        case is String.Type: return "text (in quotes)"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array<") || name.hasPrefix("[") { return "a list ([…])" }
            if name.hasPrefix("Dictionary<") { return "an object ({…})" }
            return name
        }
    }
}
