import Testing

@testable import HostLifecycle

/// `check`'s child and parent speak through one type: every message reads back as written,
/// a reason stays on its line, and anything else on the pipe is no message.
@Suite struct ProbeMessageTests {
    @Test(arguments: [
        ProbeMessage.begin(module: "Geo"),
        .loaded(module: "Geo", files: 6, nanoseconds: 1_234_567),
        .problem(module: "Photos", reason: "library '/opt/libPhotos.so' has no module descriptor"),
        .conflict(module: "Todo", reason: "route 'NotesRoute' has two identities in this process"),
        .ended(.hang), .ended(.exit("3")), .ended(.signal("SIGSEGV")),
    ])
    func eachMessageReadsBackAsWritten(message: ProbeMessage) {
        let line = message.line
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
        #expect(ProbeMessage(line: String(line.dropLast())) == message)
    }

    @Test func aReasonWithANewlineStaysOnItsLine() {
        let line = ProbeMessage.problem(module: "Geo", reason: "first\nsecond").line
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(ProbeMessage(line: String(line.dropLast())) == .problem(module: "Geo", reason: "first\\nsecond"))
    }

    @Test(arguments: ["", "ok", "hello Geo", "begin ", "modhost: warning: something"])
    func anythingElseIsNoMessage(line: String) {
        #expect(ProbeMessage(line: line) == nil)
    }
}
