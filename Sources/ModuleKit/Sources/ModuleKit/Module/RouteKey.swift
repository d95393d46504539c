/// The identity of a route: a protocol type from Contracts, keyed by `ObjectIdentifier`.
///
/// Because the process holds one copy of Contracts, the same protocol has the same key in the
/// host and in every module library.
///
/// ```swift
/// static let provides: [RouteKey] = [.route((any GeoRoute).self)]
/// ```
public struct RouteKey: Hashable, Sendable {
    /// The key the locator stores the route under.
    public let id: ObjectIdentifier
    /// The protocol's name without module prefix or `any`, for messages (`GeoRoute`).
    public let name: String

    /// The key of the route type `type`.
    public static func route<T>(_ type: T.Type) -> RouteKey {
        RouteKey(id: ObjectIdentifier(type), name: displayName(of: type))
    }

    public static func == (lhs: RouteKey, rhs: RouteKey) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    static func displayName<T>(of type: T.Type) -> String {
        let name = _typeName(type, qualified: false)
        return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
    }
}

extension RouteKey: CustomStringConvertible {
    public var description: String { name }
}
