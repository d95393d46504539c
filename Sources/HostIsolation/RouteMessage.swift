import HostProcesses

/// The frames of route calls, after the hellos: a call, its answer, and the release of objects
/// and callbacks the other side no longer holds. Integers are little-endian; a string or a
/// value is its length (4 bytes) and its bytes.
enum RouteMessage: Equatable {
    case call(id: UInt64, target: RouteLink.Target, member: String, slots: [WireSlot])
    case answer(id: UInt64, Outcome)
    case release([UInt64])

    enum Kind {
        static let call: UInt8 = 5
        static let answer: UInt8 = 6
        static let release: UInt8 = 7
    }

    /// One argument on the wire.
    enum WireSlot: Equatable {
        case value([UInt8])
        case callback(UInt64)
    }

    enum Outcome: Equatable {
        case answered(RouteAnswer)
        /// The callee threw.
        case thrown(type: String, message: String)
        /// The call could not be made (no such member, a value that did not read).
        case refused(String)
    }

    var frame: Frame {
        var out = ByteWriter()
        switch self {
        case .call(let id, let target, let member, let slots):
            out.integer(id)
            switch target {
            case .route(let name):
                out.byte(0)
                out.string(name)
            case .object(let reference):
                out.byte(1)
                out.integer(reference)
            case .dead: out.byte(2)
            }
            out.string(member)
            out.integer(UInt32(slots.count))
            for slot in slots {
                switch slot {
                case .value(let bytes):
                    out.byte(0)
                    out.bytes(bytes)
                case .callback(let reference):
                    out.byte(1)
                    out.integer(reference)
                }
            }
            return Frame(kind: Kind.call, payload: out.bytes)
        case .answer(let id, let outcome):
            out.integer(id)
            switch outcome {
            case .answered(.void): out.byte(0)
            case .answered(.value(let bytes)):
                out.byte(1)
                out.bytes(bytes)
            case .answered(.object(let reference)):
                out.byte(2)
                out.integer(reference)
            case .thrown(let type, let message):
                out.byte(3)
                out.string(type)
                out.string(message)
            case .refused(let why):
                out.byte(4)
                out.string(why)
            }
            return Frame(kind: Kind.answer, payload: out.bytes)
        case .release(let references):
            for reference in references { out.integer(reference) }
            return Frame(kind: Kind.release, payload: out.bytes)
        }
    }

    /// Reads a frame of one of the three kinds; `nil` for another kind.
    init?(_ frame: Frame) throws(RouteCallError) {
        var input = ByteReader(frame.payload)
        switch frame.kind {
        case Kind.call:
            let id: UInt64 = try input.integer()
            let target: RouteLink.Target
            switch try input.byte() {
            case 0: target = .route(try input.string())
            case 1: target = .object(try input.integer())
            case 2: target = .dead
            case let tag: throw .malformed("a call's target of kind \(tag)")
            }
            let member = try input.string()
            let count: UInt32 = try input.integer()
            guard count <= 256 else { throw .malformed("a call with \(count) arguments") }
            var slots: [WireSlot] = []
            for _ in 0..<count {
                switch try input.byte() {
                case 0: slots.append(.value(try input.bytes()))
                case 1: slots.append(.callback(try input.integer()))
                case let tag: throw .malformed("an argument of kind \(tag)")
                }
            }
            try input.end()
            self = .call(id: id, target: target, member: member, slots: slots)
        case Kind.answer:
            let id: UInt64 = try input.integer()
            let outcome: Outcome
            switch try input.byte() {
            case 0: outcome = .answered(.void)
            case 1: outcome = .answered(.value(try input.bytes()))
            case 2: outcome = .answered(.object(try input.integer()))
            case 3: outcome = .thrown(type: try input.string(), message: try input.string())
            case 4: outcome = .refused(try input.string())
            case let tag: throw .malformed("an answer of kind \(tag)")
            }
            try input.end()
            self = .answer(id: id, outcome)
        case Kind.release:
            guard frame.payload.count % 8 == 0 else { throw .malformed("a release of \(frame.payload.count) bytes") }
            var references: [UInt64] = []
            while !input.isAtEnd { references.append(try input.integer()) }
            self = .release(references)
        default:
            return nil
        }
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bytes(_ value: [UInt8]) {
        integer(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { bytes(Array(value.utf8)) }
}

struct ByteReader {
    let data: [UInt8]
    var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    var isAtEnd: Bool { offset == data.count }

    mutating func byte() throws(RouteCallError) -> UInt8 {
        guard offset < data.count else { throw .malformed("a message ends early") }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func integer<Value: FixedWidthInteger & UnsignedInteger>() throws(RouteCallError) -> Value {
        let size = MemoryLayout<Value>.size
        guard data.count - offset >= size else { throw .malformed("a message ends early") }
        var value: Value = 0
        for index in 0..<size { value |= Value(data[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func bytes() throws(RouteCallError) -> [UInt8] {
        let count = Int(try integer() as UInt32)
        guard data.count - offset >= count else { throw .malformed("a value longer than its message") }
        defer { offset += count }
        return Array(data[offset..<offset + count])
    }

    mutating func string() throws(RouteCallError) -> String {
        String(decoding: try bytes(), as: UTF8.self)
    }

    func end() throws(RouteCallError) {
        guard isAtEnd else { throw .malformed("\(data.count - offset) bytes after a message's end") }
    }
}
