import CHostProcess
import Glibc

/// Frames over one end of a stream socket (a `socketpair` between the host and a process of
/// its own), with descriptors passed by `SCM_RIGHTS` where handles must cross.
///
/// A frame's descriptors go with its first bytes and the frame announces how many: the reader
/// hands each frame exactly as many as it announced, in the order they came, so a read that
/// takes the end of one frame and the start of the next cannot give one's to the other. A frame
/// that announces more than have come is refused; descriptors no frame claims wait (at most
/// ``maximumDescriptors``, closed with the channel) and are refused when the link ends.
/// The channel owns its descriptor and closes it when it goes.
package final class FrameChannel {
    /// One frame as received, and the descriptors that came with it (the receiver's to close).
    package struct Received {
        package let frame: Frame
        package let descriptors: [Int32]
    }

    package let descriptor: Int32
    private var decoder: FrameDecoder
    /// Descriptors that came and no frame has claimed yet.
    private var arrived: [Int32] = []
    private var ended = false
    /// Where `recvmsg` reads into: made once, and never zeroed (only what `recvmsg` wrote is
    /// read from it): zeroing 64 KiB touched all its pages, a page fault each, at every start
    /// of a module's process, on both sides of its link.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    /// The receive limit last set (`.some(nil)`: none), so that a read does not pay a
    /// `setsockopt` to set it again.
    private var receiveLimit: Duration??
    /// How far past a frame's deadline a read may wait, at most twice, rather than set the
    /// limit again for every read.
    static let deadlineSlack = Duration.milliseconds(5)
    /// How long a read looks for bytes without sleeping before it waits for them
    /// (``defaultLook``).
    package var lookBeforeWaiting = FrameChannel.defaultLook
    /// How long the next read looks instead, once: a frame known to come soon (the host's
    /// first call after the process's hello, a module's answer to its start), which a sleep
    /// would make wait for a wake-up. Where ``lookBeforeWaiting`` is zero, it does not look.
    package var nextLook: Duration?
    /// Where `recvmsg` puts the descriptors that come: made once.
    private var fds = [Int32](repeating: -1, count: FrameChannel.maximumDescriptors)

    /// - Parameter maximumFrameSize: The largest frame accepted from the peer.
    package init(descriptor: Int32, maximumFrameSize: Int = 16 << 20) {
        self.descriptor = descriptor
        decoder = FrameDecoder(maximumSize: maximumFrameSize)
    }

    deinit {
        for fd in arrived { close(fd) }
        close(descriptor)
        buffer.deallocate()
    }

    /// A connected pair of channels (`socketpair`, close-on-exec): one for each side.
    package static func pair(maximumFrameSize: Int = 16 << 20) throws(WireError) -> (FrameChannel, FrameChannel) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .system("socketpair", String(cString: strerror(errno)))
        }
        return (
            FrameChannel(descriptor: ends[0], maximumFrameSize: maximumFrameSize),
            FrameChannel(descriptor: ends[1], maximumFrameSize: maximumFrameSize)
        )
    }

    /// The host's channel and the child's end as a bare descriptor (close-on-exec; the
    /// caller makes it the child's descriptor 3 and closes its own copy at once).
    package static func pairForChild(maximumFrameSize: Int = 16 << 20) throws(WireError) -> (FrameChannel, child: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .system("socketpair", String(cString: strerror(errno)))
        }
        return (FrameChannel(descriptor: ends[0], maximumFrameSize: maximumFrameSize), ends[1])
    }

    /// Makes each later ``receive()`` give up after `limit` without a byte
    /// (``WireError/timedOut``); `nil` waits for ever.
    package func setReceiveLimit(_ limit: Duration?) {
        if receiveLimit == .some(limit) { return }
        receiveLimit = limit
        setLimit(SO_RCVTIMEO, limit)
    }

    /// How long a send may wait for the peer to take what is sent (a peer that reads nothing
    /// fills the socket's buffer); `nil` waits for ever. A send past it fails with
    /// ``WireError/system(_:_:)``.
    package func setSendLimit(_ limit: Duration?) {
        setLimit(SO_SNDTIMEO, limit)
    }

    private func setLimit(_ option: Int32, _ limit: Duration?) {
        let parts = limit?.components ?? (seconds: 0, attoseconds: 0)
        var time = timeval(tv_sec: Int(parts.seconds), tv_usec: Int(parts.attoseconds / 1_000_000_000_000))
        if limit != nil && time.tv_sec == 0 && time.tv_usec == 0 { time.tv_usec = 1 }
        _ = setsockopt(descriptor, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `frame`, with `descriptors` (at most ``maximumDescriptors``; the caller keeps
    /// its own copies and closes them).
    package func send(_ frame: Frame, descriptors: [Int32] = []) throws(WireError) {
        guard descriptors.count <= Self.maximumDescriptors else { throw .tooManyDescriptors }
        let bytes = frame.encoded(descriptors: descriptors.count)
        var sent = 0
        while sent < bytes.count {
            // The descriptors go with the first bytes only.
            let count = bytes.withUnsafeBytes { buffer in
                descriptors.withUnsafeBufferPointer { fds in
                    modhost_send_with_descriptors(
                        descriptor, buffer.baseAddress.map { $0 + sent }, buffer.count - sent, sent == 0 ? fds.baseAddress : nil,
                        sent == 0 ? Int32(fds.count) : 0)
                }
            }
            guard count > 0 else {
                if errno == EPIPE || errno == ECONNRESET { throw .closed }
                throw .system("sendmsg", String(cString: strerror(errno)))
            }
            sent += count
        }
    }

    /// The next frame, or `nil` when the peer closed its end between frames.
    ///
    /// - Throws: ``WireError``: a frame too large or empty, the end inside a frame, descriptors
    ///   that do not match what the frames announce, or a failed `recvmsg`.
    package func receive() throws(WireError) -> Received? {
        try receive(until: nil)
    }

    /// ``receive()``, the whole frame due by `deadline` (`nil`: the receive limit for each read
    /// only): a peer that sends a frame a byte at a time cannot stretch it past it.
    package func receive(until deadline: ContinuousClock.Instant?) throws(WireError) -> Received? {
        while true {
            if let (frame, count) = try decoder.next() {
                guard count <= arrived.count else { throw .missingDescriptors(announced: count, arrived: arrived.count) }
                let mine = Array(arrived.prefix(count))
                arrived.removeFirst(count)
                return Received(frame: frame, descriptors: mine)
            }
            if ended {
                try decoder.finish()
                guard arrived.isEmpty else { throw .missingDescriptors(announced: 0, arrived: arrived.count) }
                return nil
            }
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw .timedOut }
                // The limit already set serves when it ends at most twice the slack past the
                // deadline (a shorter one would end the read early); set again, it ends one
                // slack past, so that the next calls' deadlines, as far off, find it serves.
                if case .some(.some(let set)) = receiveLimit, set >= left, set - left <= Self.deadlineSlack * 2 {
                } else {
                    setReceiveLimit(left + Self.deadlineSlack)
                }
            }
            var count: Int32 = 0
            let received = read(count: &count)
            guard received >= 0 else {
                if errno == EMSGSIZE { throw .tooManyDescriptors }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
                // The peer went with bytes of ours unread: its end, as a close is.
                if errno == ECONNRESET {
                    ended = true
                    continue
                }
                throw .system("recvmsg", String(cString: strerror(errno)))
            }
            arrived += fds.prefix(Int(count))
            guard arrived.count <= Self.maximumDescriptors else { throw .tooManyDescriptors }
            if received == 0 { ended = true } else { decoder.append(UnsafeRawBufferPointer(rebasing: buffer.prefix(received))) }
        }
    }

    /// One `recvmsg`: first without waiting for up to ``lookBeforeWaiting`` (unless looking
    /// is resting, ``Looking``), then waiting. The bytes received (0 at the end), or -1 with
    /// `errno` set by the last `recvmsg`.
    private func read(count: inout Int32) -> Int {
        let fd = descriptor
        func once(_ flags: Int32) -> (Int, Int32) {
            let received = fds.withUnsafeMutableBufferPointer { fds in
                modhost_receive_with_descriptors(fd, buffer.baseAddress, buffer.count, fds.baseAddress, &count, flags)
            }
            return (received, errno)
        }
        var (received, error) = (0, Int32(0))
        let longer = nextLook
        nextLook = nil
        if lookBeforeWaiting > .zero, longer != nil || looking.shouldLook() {
            let began = ContinuousClock.now
            let until = began + (longer ?? lookBeforeWaiting)
            repeat {
                (received, error) = once(Int32(MSG_DONTWAIT))
                if received >= 0 || (error != EAGAIN && error != EWOULDBLOCK) {
                    looking.found()
                    errno = error
                    return received
                }
            } while ContinuousClock.now < until
            (received, error) = once(0)
            if received >= 0, longer == nil { looking.waited(ContinuousClock.now - began, look: lookBeforeWaiting) }
        } else {
            (received, error) = once(0)
        }
        errno = error
        return received
    }

    /// When looking does not pay. Bytes that come soon after the look ended (less than four
    /// looks after it began) mean the peer was about to answer — or could not, because it
    /// shares this processor and looking kept it from running; three such waits in a row rest
    /// looking for the next 128 reads, then it is tried again. Bytes that come long after (a
    /// peer idle between calls) say nothing about looking, and end the row.
    package struct Looking {
        private var misses = 0
        private var resting = 0

        package init() {}

        /// Whether this read looks first (a resting read counts down the rest).
        package mutating func shouldLook() -> Bool {
            guard resting == 0 else {
                resting -= 1
                return false
            }
            return true
        }

        /// The look found bytes.
        package mutating func found() { misses = 0 }

        /// The look found none; bytes came `waited` after it began.
        package mutating func waited(_ waited: Duration, look: Duration) {
            guard waited < look * 4 else {
                misses = 0
                return
            }
            misses += 1
            if misses >= 3 {
                misses = 0
                resting = 128
            }
        }
    }
    private var looking = Looking()

    /// 50 µs when this process may run on more than one processor (its affinity), none on one; `MODHOST_LINK_LOOK_US` (0 to 1000) sets
    /// it, for the benchmark's comparison. A call's answer that comes within it costs no
    /// wake-up of a sleeping thread — on a VM, of a halted vCPU, which costs more than the
    /// whole call — and a process that serves calls one after another sees the next without
    /// sleeping. On one processor looking would only keep the peer from running.
    package static let defaultLook: Duration = {
        if let text = getenv("MODHOST_LINK_LOOK_US"), let us = Int(String(cString: text)), (0...1_000).contains(us) {
            return .microseconds(us)
        }
        return modhost_usable_processors() > 1 ? .microseconds(50) : .zero
    }()

    /// Most descriptors one frame carries (`MODHOST_MESSAGE_DESCRIPTORS`).
    package static let maximumDescriptors = Int(MODHOST_MESSAGE_DESCRIPTORS)
}
