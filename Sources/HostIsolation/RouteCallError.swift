/// Why a call across the process boundary did not answer with the callee's result.
package enum RouteCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The other process is gone or its link failed: every route it served is unavailable.
    case unavailable(peer: String, reason: String)
    /// The callee threw: its error's type and message, as it described it.
    case thrown(type: String, message: String)
    /// A value could not be written or read at the boundary (the member and why).
    case malformed(String)
    /// The member is marked in-process only: its arguments do not cross.
    case notCarried(member: String)

    package var description: String {
        switch self {
        case .unavailable(let peer, let reason): "\(peer) is unavailable: \(reason)"
        case .thrown(_, let message): message
        case .malformed(let why): "a call across processes failed: \(why)"
        case .notCarried(let member): "'\(member)' is served in its own process only"
        }
    }
}
