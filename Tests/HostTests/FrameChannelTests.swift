import CHostProcess
import Foundation
import Glibc
import HostProcesses
import Testing

/// The frames between the host and a process of its own, over a real socketpair: whole frames
/// however the bytes arrive, descriptors handed to the frame that announced them, and a peer
/// that sends too much, too little or the wrong descriptors refused.
@Suite struct FrameChannelTests {
    @Test func framesCrossWholeAndInOrder() throws {
        let (host, child) = try FrameChannel.pair()
        let frames = [
            Frame(kind: 1, payload: []), Frame(kind: 2, payload: Array("hello".utf8)),
            Frame(kind: 3, payload: [UInt8](repeating: 7, count: 30_000)),
        ]
        for frame in frames { try host.send(frame) }
        shutdown(host.descriptor, Int32(SHUT_WR))
        var received: [Frame] = []
        while let next = try child.receive() { received.append(next.frame) }
        #expect(received == frames)
    }

    @Test func aFrameComesOutOnlyWhenItsLastByteHasCome() throws {
        let frames = [Frame(kind: 4, payload: Array("one".utf8)), Frame(kind: 5, payload: Array("two".utf8))]
        let bytes = frames.flatMap { $0.encoded() }
        var decoder = FrameDecoder(maximumSize: 1_024)
        var out: [Frame] = []
        for (index, byte) in bytes.enumerated() {
            decoder.append([byte])
            while let next = try decoder.next() {
                out.append(next.frame)
                // Each frame is whole exactly at its own last byte.
                #expect(index + 1 == (out.count == 1 ? frames[0].encoded().count : bytes.count))
            }
        }
        #expect(out == frames)
        try decoder.finish()
    }

    @Test func aDescriptorGoesToTheFrameThatAnnouncedIt() throws {
        let (host, child) = try FrameChannel.pair()
        var pipe: [Int32] = [-1, -1]
        try #require(modhost_pipe_cloexec(&pipe) == 0)
        // Three frames in one burst: the middle one carries the pipe's writing end.
        try host.send(Frame(kind: 1, payload: [1]))
        try host.send(Frame(kind: 2, payload: [2]), descriptors: [pipe[1]])
        try host.send(Frame(kind: 3, payload: [3]))
        close(pipe[1])
        let first = try #require(try child.receive())
        let second = try #require(try child.receive())
        let third = try #require(try child.receive())
        #expect(first.descriptors.isEmpty && third.descriptors.isEmpty)
        #expect(second.frame == Frame(kind: 2, payload: [2]))
        let passed = try #require(second.descriptors.first)
        // Close-on-exec as it arrives: no program the host starts inherits it.
        #expect(fcntl(passed, F_GETFD) & FD_CLOEXEC != 0)
        // The descriptor that came is the pipe: what is written on it comes out of the other end.
        #expect(write(passed, "through", 7) == 7)
        close(passed)
        var bytes = [UInt8](repeating: 0, count: 16)
        #expect(read(pipe[0], &bytes, 16) == 7)
        #expect(String(decoding: bytes.prefix(7), as: UTF8.self) == "through")
        close(pipe[0])
    }

    @Test func aFrameLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let (host, child) = try FrameChannel.pair(maximumFrameSize: 1_024)
        // Only the announced length: the refusal does not wait for the bytes.
        let announced: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00]
        #expect(write(host.descriptor, announced, announced.count) == announced.count)
        #expect(throws: WireError.tooLarge(size: 0x10_0000, limit: 1_024)) { _ = try child.receive() }
    }

    @Test func theEndInsideAFrameIsNamed() throws {
        let (host, child) = try FrameChannel.pair()
        let whole = Frame(kind: 9, payload: Array("cut short".utf8)).encoded()
        #expect(write(host.descriptor, whole, 12) == 12)
        shutdown(host.descriptor, Int32(SHUT_WR))
        #expect(throws: WireError.truncated(missing: whole.count - 12)) { _ = try child.receive() }
    }

    @Test func descriptorsAFrameDidNotAnnounceAreRefused() throws {
        let (host, child) = try FrameChannel.pair()
        var pipe: [Int32] = [-1, -1]
        try #require(modhost_pipe_cloexec(&pipe) == 0)
        // A frame that says it carries none, sent with one.
        let bytes = Frame(kind: 1, payload: [1]).encoded(descriptors: 0)
        let sent = bytes.withUnsafeBytes { buffer in
            [pipe[0]].withUnsafeBufferPointer {
                modhost_send_with_descriptors(host.descriptor, buffer.baseAddress, buffer.count, $0.baseAddress, 1)
            }
        }
        #expect(sent == bytes.count)
        shutdown(host.descriptor, Int32(SHUT_WR))
        _ = try child.receive()
        #expect(throws: WireError.missingDescriptors(announced: 0, arrived: 1)) { _ = try child.receive() }
        close(pipe[0])
        close(pipe[1])
    }

    @Test func aFrameAnnouncingDescriptorsThatNeverCameIsRefused() throws {
        let (host, child) = try FrameChannel.pair()
        let bytes = Frame(kind: 1, payload: [1]).encoded(descriptors: 2)
        #expect(write(host.descriptor, bytes, bytes.count) == bytes.count)
        #expect(throws: WireError.missingDescriptors(announced: 2, arrived: 0)) { _ = try child.receive() }
    }

    /// A read looks for bytes without sleeping first (``FrameChannel/lookBeforeWaiting``), then
    /// waits: what comes long after the look is still read, with its descriptor; a receive
    /// limit still ends a read that gets nothing; the peer's end still reads as the end.
    @Test func aReadThatLooksFirstStillWaitsForWhatComesLater() throws {
        let (host, child) = try FrameChannel.pair()
        child.lookBeforeWaiting = .microseconds(200)
        let fd = host.descriptor
        let bytes = Frame(kind: 9, payload: Array("late".utf8)).encoded(descriptors: 1)
        let sender = Thread {
            usleep(30_000)
            var pipe: [Int32] = [-1, -1]
            _ = Glibc.pipe(&pipe)
            _ = bytes.withUnsafeBytes { buffer in
                [pipe[1]].withUnsafeBufferPointer { modhost_send_with_descriptors(fd, buffer.baseAddress, buffer.count, $0.baseAddress, 1) }
            }
            close(pipe[0])
            close(pipe[1])
        }
        sender.start()
        let late = try #require(try child.receive())
        #expect(late.frame == Frame(kind: 9, payload: Array("late".utf8)))
        #expect(late.descriptors.count == 1 && fcntl(late.descriptors[0], F_GETFD) >= 0)
        for descriptor in late.descriptors { close(descriptor) }
        child.setReceiveLimit(.milliseconds(20))
        #expect(throws: WireError.timedOut) { _ = try child.receive() }
        // A frame already there is taken by the look, with its descriptor.
        var pipe: [Int32] = [-1, -1]
        _ = Glibc.pipe(&pipe)
        try host.send(Frame(kind: 8, payload: [1]), descriptors: [pipe[0]])
        let early = try #require(try child.receive())
        #expect(early.frame == Frame(kind: 8, payload: [1]) && early.descriptors.count == 1)
        for descriptor in early.descriptors + pipe { close(descriptor) }
        shutdown(host.descriptor, Int32(SHUT_WR))
        #expect(try child.receive() == nil)
    }

    /// Three answers in a row that come soon after the look rest it for 128 reads; one that
    /// comes long after ends the row; one the look finds starts it again.
    @Test func lookingRestsWhenAnswersComeJustAfterIt() {
        let look = Duration.microseconds(50)
        var looking = FrameChannel.Looking()
        for _ in 0..<2 { looking.waited(.microseconds(120), look: look) }
        looking.waited(.seconds(1), look: look)
        looking.waited(.microseconds(120), look: look)
        looking.found()
        for _ in 0..<2 { looking.waited(.microseconds(120), look: look) }
        let looks = looking.shouldLook()
        #expect(looks, "no three in a row yet")
        looking.waited(.microseconds(199), look: look)
        let rested = (0..<200).prefix { _ in !looking.shouldLook() }.count
        #expect(rested == 128)
    }
}
