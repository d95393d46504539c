/// What the tool reads from a contracts library: the protocols that cross a process boundary
/// and, for each member, how its arguments and result cross.
struct BridgedProtocol {
    /// The protocol's name (`GeoRoute`).
    let name: String
    /// The contracts module that declares it (`Contracts`).
    let module: String
    /// A route (its name ends in `Route`: a module provides it), or a protocol a route's
    /// member returns (`AuthObservation`), which crosses as a remote object.
    let isRoute: Bool
    /// `@MainActor` on the protocol: every member is called on the main actor.
    let isMainActor: Bool
    /// Whether conforming types are classes (`AnyObject`): the proxy is then a class too.
    var members: [Member]
}

/// One requirement of a bridged protocol.
struct Member {
    enum Kind {
        case property
        case function
    }

    let kind: Kind
    /// The base name (`presentCityPicker`).
    let name: String
    let parameters: [Parameter]
    let result: CrossingType
    let throwsErrors: Bool
    /// On the main actor (its own attribute or its protocol's).
    let isMainActor: Bool
    /// Marked `// modhost: in-process only`: not carried; a proxy answers as if unavailable.
    let inProcessOnly: Bool
    /// The member as written, without attributes: the proxy's declaration repeats it.
    let declaration: String

    /// How callers and dispatchers name it on the wire: `changePassword(current:new:)`,
    /// `currentUser`.
    let wireName: String
}

struct Parameter {
    /// The argument label (`nil` for `_`).
    let label: String?
    /// The name inside the body.
    let name: String
    let type: CrossingType
}

/// How a value crosses.
indirect enum CrossingType: Equatable {
    /// Nothing.
    case void
    /// A Codable value, spelled as in the source (`[SavedCity]`, `AuthUser?`).
    case value(String, fallback: Fallback?)
    /// A bridged protocol's existential (`any AuthObservation`): a remote object.
    case remote(String)
    /// An escaping closure whose arguments are values and whose result is `Void`: a remote
    /// callback. `spelling` is the closure's type as written.
    case callback(arguments: [String], isMainActor: Bool, spelling: String)
    /// An argument of a type marked `// modhost: carried by the host` (or an array of one):
    /// values and closures together, which the isolation runtime carries with its own
    /// `RouteCarried` conformance (the closures as a remote object the receiver calls back).
    case carried(String)

    /// What a non-throwing member answers when the module's process is gone.
    enum Fallback: Equatable {
        /// `nil`.
        case none
        /// An empty array, dictionary or string, `false`, `0`.
        case empty(String)
    }
}

/// A member the tool cannot carry, with the reason, for the build's error.
struct CrossingProblem: Error {
    let location: String
    let message: String
}
