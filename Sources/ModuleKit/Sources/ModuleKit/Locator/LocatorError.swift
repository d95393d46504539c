/// Why the locator refused a registration or could not resolve a type.
public struct LocatorError: Error, Sendable, Equatable {
    /// The kind of failure, for code that reacts to it.
    public enum Kind: Sendable, Equatable {
        /// A module resolved a route it did not declare in `requires`, `uses` or `provides`.
        case undeclared
        /// The route is declared but its provider is disabled, failed or missing.
        case unavailable
        /// Nothing is registered for the type.
        case notRegistered
        /// A second registration for a key; the message names both modules.
        case duplicate
        /// A module registered a route it does not declare in `provides`.
        case notProvided
        /// A registration after start-up, when the locator is read-only.
        case sealed
        /// `resolve` of a factory, or `make` of a shared value; the message names the call.
        case lifetime
        /// A lazy singleton resolved, directly or not, by its own maker.
        case cycle
    }

    public let kind: Kind
    /// The route or service type, by name.
    public let type: String
    /// The full, human-readable message.
    public let message: String

    public init(_ kind: Kind, type: String, message: String) {
        self.kind = kind
        self.type = type
        self.message = message
    }
}

extension LocatorError: CustomStringConvertible {
    public var description: String { message }
}
