@_spi(Host) import ModuleKit

/// Makes the calls another process sends to a value of this one: generated for each bridged
/// protocol (RouteBridgePlugin). Members isolated to the main actor are made by
/// ``dispatchOnMainActor(_:_:)``, which the link calls only on the main thread.
package protocol RouteDispatching: Sendable {
    /// Makes `member`'s call when it is not isolated to the main actor; `nil` when it is, or
    /// when there is no such member.
    func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer?
    /// Makes `member`'s call when it is isolated to the main actor.
    @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer?
}

/// One route that can cross: its key, how to register a proxy of it that calls another
/// process, and how to make a dispatcher of the value this process has.
package struct RouteBridge: Sendable {
    package let name: String
    /// The contracts library that declares it.
    package let contracts: String
    package let key: RouteKey
    /// Registers, as `registry`'s module's route, a proxy that calls `remote`.
    package let registerProxy: @Sendable (ModuleRegistry, RemoteObject) throws -> Void
    /// A dispatcher of the route `resolver` resolves.
    package let dispatcher: @Sendable (ModuleResolver) throws -> any RouteDispatching

    /// Every route the host can carry across processes, by name.
    package static let all: [String: RouteBridge] = Dictionary(
        GeneratedRouteBridges.all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
