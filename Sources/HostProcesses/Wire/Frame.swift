/// One message between the host and a process of its own: a kind and its bytes.
///
/// On the wire a frame is an 8-byte little-endian length (of what follows it), the kind (one
/// byte), how many descriptors travel with it (one byte: they go with its first bytes, by
/// `SCM_RIGHTS`) and the bytes — the toolchain's plugin server frames its messages by the same
/// length. Nothing a peer sends is trusted: a length over the reader's limit is refused before
/// a byte of the frame is kept.
package struct Frame: Equatable, Sendable {
    package let kind: UInt8
    package let payload: [UInt8]

    package init(kind: UInt8, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    /// The frame as it goes on the wire, announcing `descriptors` descriptors with it.
    package func encoded(descriptors: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + payload.count)
        let length = UInt64(2 + payload.count)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        bytes.append(kind)
        bytes.append(UInt8(clamping: descriptors))
        bytes += payload
        return bytes
    }

    /// The length, the kind and the descriptor count.
    package static let headerSize = 10
    static let lengthSize = 8
}

/// What is wrong with what a peer sent, or with the connection.
package enum WireError: Error, Equatable, Sendable {
    /// A frame announced as `size` bytes, more than the `limit` the reader takes.
    case tooLarge(size: UInt64, limit: Int)
    /// A frame announced with no room for its kind and descriptor count.
    case empty
    /// A frame announced more descriptors than came with it.
    case missingDescriptors(announced: Int, arrived: Int)
    /// The connection ended inside a frame, `missing` bytes short.
    case truncated(missing: Int)
    /// More descriptors came than one message may carry.
    case tooManyDescriptors
    /// The peer's hello could not be taken: what was wrong with it.
    case malformedHello(String)
    /// The peer said nothing within the time it was given.
    case timedOut
    /// The peer closed its end while this side was sending.
    case closed
    /// A system call failed: what it was, and the reason.
    case system(String, String)

    package var description: String {
        switch self {
        case .tooLarge(let size, let limit): "a frame of \(size) bytes, more than the \(limit) accepted"
        case .empty: "a frame without a kind"
        case .missingDescriptors(let announced, let arrived): "a frame announced \(announced) descriptors, \(arrived) came"
        case .truncated(let missing): "the connection ended \(missing) bytes into a frame's end"
        case .tooManyDescriptors: "more descriptors than one message carries"
        case .malformedHello(let what): "its hello cannot be taken: \(what)"
        case .timedOut: "it did not answer in time"
        case .closed: "it closed the link"
        case .system(let call, let reason): "\(call): \(reason)"
        }
    }
}

/// Frames out of a byte stream as it arrives: bytes in, whole frames out.
package struct FrameDecoder: Sendable {
    /// The largest frame accepted (its kind and bytes).
    package let maximumSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    package mutating func append(_ bytes: some Collection<UInt8>) {
        buffer += bytes
    }

    /// The next whole frame and the number of descriptors it announced, or `nil` until more
    /// bytes come.
    ///
    /// - Throws: ``WireError/tooLarge(size:limit:)`` or ``WireError/empty`` as soon as a
    ///   frame's length is read: a peer that sends one is not read further.
    package mutating func next() throws(WireError) -> (frame: Frame, descriptors: Int)? {
        guard buffer.count - start >= Frame.lengthSize else { return nil }
        let length = announcedLength()
        guard length >= 2 else { throw .empty }
        guard length <= UInt64(maximumSize) else { throw .tooLarge(size: length, limit: maximumSize) }
        let end = start + Frame.lengthSize + Int(length)
        guard buffer.count >= end else { return nil }
        let frame = Frame(kind: buffer[start + Frame.lengthSize], payload: Array(buffer[(start + Frame.headerSize)..<end]))
        let descriptors = Int(buffer[start + Frame.lengthSize + 1])
        start = end
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        return (frame, descriptors)
    }

    /// Checks that the stream ended between frames.
    ///
    /// - Throws: ``WireError/truncated(missing:)`` when it ended inside one.
    package func finish() throws(WireError) {
        let left = buffer.count - start
        guard left > 0 else { return }
        guard left >= Frame.lengthSize else { throw .truncated(missing: Frame.lengthSize - left) }
        throw .truncated(missing: Frame.lengthSize + Int(min(announcedLength(), UInt64(maximumSize))) - left)
    }

    private func announcedLength() -> UInt64 {
        var length: UInt64 = 0
        for index in (0..<Frame.lengthSize).reversed() { length = length << 8 | UInt64(buffer[start + index]) }
        return length
    }
}
