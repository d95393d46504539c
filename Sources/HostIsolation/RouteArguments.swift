import Dispatch
import FoundationEssentials
import Glibc

/// The arguments of one call, as the proxy writes them: each value encoded, each callback
/// kept until the link exports it.
package struct RouteArguments {
    enum Slot {
        case value([UInt8])
        case callback(onMainActor: Bool, RemoteCallback.Body)
        /// An object the other side calls back until it releases it.
        case object(any RouteDispatching)
    }

    var slots: [Slot] = []
    /// Open descriptors that go with the call (`SCM_RIGHTS`); the caller keeps and closes its own.
    var descriptors: [Int32] = []
    /// The first argument that could not be written.
    var problem: String?

    package init() {}

    /// Sends `descriptors` with the call: the other side gets its own copies.
    package mutating func pass(_ descriptors: [Int32]) {
        self.descriptors = descriptors
    }

    package mutating func value(_ value: some Encodable) {
        do {
            slots.append(.value(try RouteValueCoding.encode(value)))
        } catch {
            problem = problem ?? "argument \(slots.count): \(error)"
            slots.append(.value([]))
        }
    }

    /// A closure the other side calls back: `body` reads its arguments.
    package mutating func callback(onMainActor: Bool, _ body: @escaping RemoteCallback.Body) {
        slots.append(.callback(onMainActor: onMainActor, body))
    }

    /// An object the other side calls (`dispatcher` serves its calls) until it releases it.
    package mutating func object(_ dispatcher: some RouteDispatching) {
        slots.append(.object(dispatcher))
    }

    package mutating func fail(_ why: String) {
        problem = problem ?? why
    }
}

/// The arguments of a call received, as a dispatcher reads them.
package struct RouteCallReader {
    enum Slot {
        case value([UInt8])
        case callback(UInt64)
    }

    let slots: [Slot]
    package let link: RouteLink
    /// The descriptors that came with the call, in order: the dispatcher's to use while it
    /// runs; closed after it answers.
    package let descriptors: [Int32]

    package func value<Value: Decodable>(_ index: Int, as type: Value.Type) throws(RouteCallError) -> Value {
        guard index < slots.count, case .value(let bytes) = slots[index] else {
            throw .malformed("argument \(index) is missing or not a value")
        }
        return try RouteValueCoding.decode(type, from: bytes)
    }

    /// The remote closure in argument `index`.
    package func callback(_ index: Int) throws(RouteCallError) -> RemoteCallback {
        guard index < slots.count, case .callback(let reference) = slots[index] else {
            throw .malformed("argument \(index) is missing or not a callback")
        }
        return RemoteCallback(link: link, reference: reference)
    }

    /// The remote object in argument `index`: released when the last reference here goes.
    package func object(_ index: Int) throws(RouteCallError) -> RemoteObject {
        guard index < slots.count, case .callback(let reference) = slots[index] else {
            throw .malformed("argument \(index) is missing or not an object")
        }
        return RemoteObject(link: link, target: .object(reference))
    }

    /// An answer holding `value`.
    package func answer(_ value: some Encodable) throws(RouteCallError) -> RouteAnswer {
        .value(try RouteValueCoding.encode(value))
    }

    /// An answer holding an object the caller calls back: `dispatcher` serves its calls until
    /// the caller releases it or the link ends.
    package func export(_ dispatcher: some RouteDispatching) -> RouteAnswer {
        .object(link.export(.object(dispatcher)))
    }
}

/// What a dispatched call answers.
package enum RouteAnswer: Sendable, Equatable {
    case void
    case value([UInt8])
    /// A reference to an object this side exported.
    case object(UInt64)
}

/// Values cross in the link's binary form (``ValueEncoder``), or as JSON when a value's
/// `encode(to:)` needs what one pass cannot write; a first byte says which.
enum RouteValueCoding {
    static let binary = UInt8(ascii: "B")
    static let json = UInt8(ascii: "J")

    static func encode(_ value: some Encodable) throws(RouteCallError) -> [UInt8] {
        do {
            if let bytes = try ValueEncoder.encode(value, after: binary) { return bytes }
            return [json] + Array(try JSONEncoder().encode(value))
        } catch {
            throw .malformed("\(type(of: value)) could not be written: \(error)")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(RouteCallError) -> Value {
        do {
            switch bytes.first {
            case binary: return try ValueDecoder.decode(type, from: bytes, at: 1)
            case json: return try JSONDecoder().decode(type, from: Data(bytes.dropFirst()))
            default: throw ValueReader(bytes).corrupted("a value of neither form", path: nil)
            }
        } catch {
            throw .malformed("a \(type) could not be read: \(error)")
        }
    }
}
