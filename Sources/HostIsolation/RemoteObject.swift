/// A value served by the other process: a route it provides (by name) or an object it
/// returned. A proxy calls through it; an object is released when its last proxy goes.
package final class RemoteObject: Sendable {
    /// Where its calls go: for a route, an endpoint whose process may be started again; for an
    /// object, the link it came over, for good.
    private let endpoint: RouteEndpoint
    let target: RouteLink.Target

    init(link: RouteLink, target: RouteLink.Target) {
        endpoint = RouteEndpoint(link)
        self.target = target
    }

    private init(endpoint: RouteEndpoint, target: RouteLink.Target) {
        self.endpoint = endpoint
        self.target = target
    }

    /// The link its calls go over now.
    package var link: RouteLink { endpoint.link }

    /// The route `name` the other process provides.
    package static func route(_ name: String, on link: RouteLink) -> RemoteObject {
        RemoteObject(link: link, target: .route(name))
    }

    /// The route `name` served at `endpoint`: a process that may be started again.
    package static func route(_ name: String, at endpoint: RouteEndpoint) -> RemoteObject {
        RemoteObject(endpoint: endpoint, target: .route(name))
    }

    deinit {
        if case .object(let reference) = target { link.release(reference) }
    }

    // MARK: Calls of throwing members

    package func call(_ member: String, _ arguments: RouteArguments) throws(RouteCallError) {
        _ = try endpoint.usableLink().call(target, member, arguments)
    }

    package func call<Value: Decodable>(
        _ member: String, _ arguments: RouteArguments, returning: Value.Type, waiting: RouteLink.CallWait = .limited
    ) throws(RouteCallError) -> Value {
        let link = try endpoint.usableLink()
        guard case .value(let bytes) = try link.call(target, member, arguments, waiting: waiting) else {
            throw link.violation("answered '\(member)' without a value")
        }
        return try RouteValueCoding.decode(Value.self, from: bytes)
    }

    package func callObject(_ member: String, _ arguments: RouteArguments) throws(RouteCallError) -> RemoteObject {
        let link = try endpoint.usableLink()
        guard case .object(let reference) = try link.call(target, member, arguments) else {
            throw link.violation("answered '\(member)' without an object")
        }
        return RemoteObject(link: link, target: .object(reference))
    }

    // MARK: Calls of members that cannot throw: a failure is reported, the fallback returned

    package func answer(_ member: String, _ arguments: RouteArguments) {
        do throws(RouteCallError) { try call(member, arguments) } catch { link.report(error, calling: member) }
    }

    package func answer<Value: Decodable>(_ member: String, _ arguments: RouteArguments, returning: Value.Type, or fallback: Value)
        -> Value
    {
        do throws(RouteCallError) {
            return try call(member, arguments, returning: Value.self)
        } catch {
            link.report(error, calling: member)
            return fallback
        }
    }

    package func answerObject(_ member: String, _ arguments: RouteArguments) -> RemoteObject {
        do throws(RouteCallError) {
            return try callObject(member, arguments)
        } catch {
            link.report(error, calling: member)
            return deadObject()
        }
    }

    /// An object whose every call fails: what a non-throwing member returns when the other
    /// process did not answer.
    package func deadObject() -> RemoteObject { RemoteObject(link: link, target: .dead) }

    // MARK: Members that stay in their process

    package func notCarried(_ member: String) -> RouteCallError { .notCarried(member: "\(target.name).\(member)") }

    package func reportNotCarried(_ member: String) {
        link.report(notCarried(member), calling: member)
    }
}

/// A closure of the other process, called through the link; released when this goes.
package final class RemoteCallback: Sendable {
    /// What a callback's exporter runs with the arguments it receives.
    package typealias Body = (RouteCallReader) throws -> Void

    let link: RouteLink
    let reference: UInt64

    init(link: RouteLink, reference: UInt64) {
        self.link = link
        self.reference = reference
    }

    deinit { link.release(reference) }

    /// Calls the closure with the arguments `write` writes; a failure is reported, not thrown
    /// (a callback returns nothing).
    package func invoke(_ write: (inout RouteArguments) -> Void) {
        var arguments = RouteArguments()
        write(&arguments)
        do throws(RouteCallError) {
            _ = try link.call(.object(reference), "callback", arguments)
        } catch {
            link.report(error, calling: "a callback")
        }
    }
}
