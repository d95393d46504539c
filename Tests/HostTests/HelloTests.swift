import HostProcesses
import Testing

/// The first frame each side of a link to a process of its own sends: what it says, read
/// back exactly, and a hello that is not one refused with what was wrong.
@Suite struct HelloTests {
    let host = Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("Contracts", "1.7.1"), ("FixtureContracts", "1.0.0")])

    @Test func aHelloIsReadBackAsItWasSaid() throws {
        #expect(try Hello(host.frame) == host)
        #expect(String(decoding: host.frame.payload, as: UTF8.self).hasPrefix("protocol=1\nhost=0.1.0\nsdk=1.7.1\n"))
        // The host's hello also names the routes it serves the module, on its last line.
        let serving = Hello(
            hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("Contracts", "1.7.1")], routes: ["GeoRoute", "HostInfoRoute"])
        #expect(try Hello(serving.frame) == serving)
        #expect(try Hello(serving.frame).routes == ["GeoRoute", "HostInfoRoute"])
        #expect(
            String(decoding: serving.frame.payload, as: UTF8.self).hasSuffix("contracts=Contracts@1.7.1\nroutes=GeoRoute,HostInfoRoute\n"))
        #expect(try Hello(host.frame).routes == [])
        #expect(try Hello(host.frame).language == nil)
    }

    /// The host's hello says the person's language, before the routes: the module's process
    /// takes it before any of the module's code runs, without a call of its own.
    @Test func theHostsHelloSaysThePersonsLanguage() throws {
        let telling = Hello(
            hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("Contracts", "1.7.1")], routes: ["GeoRoute"], language: "de")
        #expect(try Hello(telling.frame) == telling)
        #expect(try Hello(telling.frame).language == "de")
        #expect(try Hello(telling.frame).routes == ["GeoRoute"])
        #expect(
            String(decoding: telling.frame.payload, as: UTF8.self).hasSuffix("contracts=Contracts@1.7.1\nlanguage=de\nroutes=GeoRoute\n"))
        let withoutRoutes = Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [], language: "pt_BR")
        #expect(try Hello(withoutRoutes.frame).language == "pt_BR")
        // A code that could not be a line's value is not said (the process is then told by a call).
        #expect(Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [], language: "de\nroutes=X").language == nil)
        #expect(Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [], language: "").language == nil)
    }

    /// The host's hello names the descriptors that come with it, in their order: the process
    /// finds each by its name, and one not passed is none.
    @Test func theHostsHelloNamesWhatComesWithIt() throws {
        let passing = Hello(
            hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("Contracts", "1.7.1")], passes: [Hello.library, Hello.ruleset],
            routes: ["GeoRoute"], language: "de")
        let read = try Hello(passing.frame)
        #expect(read == passing)
        #expect(read.passes == ["library", "ruleset"])
        #expect(
            String(decoding: passing.frame.payload, as: UTF8.self).hasSuffix(
                "contracts=Contracts@1.7.1\npasses=library,ruleset\nlanguage=de\nroutes=GeoRoute\n"))
        #expect(read.passed(Hello.library, in: [7, 9]) == 7)
        #expect(read.passed(Hello.ruleset, in: [7, 9]) == 9)
        #expect(read.passed(Hello.filter, in: [7, 9]) == nil)
        // Fewer descriptors than it names: the missing one is none, never another.
        #expect(read.passed(Hello.ruleset, in: [7]) == nil)
    }

    @Test(arguments: [
        (Frame(kind: 4, payload: []), "a frame of kind 4 where the hello was due"),
        (Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1".utf8)), "no line end after its last line"),
        (Frame(kind: Hello.kind, payload: Array("protocol=1\nsdk=1.7.1\nhost=0.1.0\n".utf8)), "no 'host=' in line 2"),
        (Frame(kind: Hello.kind, payload: Array("protocol=one\nhost=0.1.0\nsdk=1.7.1\n".utf8)), "a protocol that is not a number"),
        (
            Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1\ncontracts=Contracts\n".utf8)),
            "contracts 'Contracts' in line 4, not Name@version"
        ),
        (Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=\u{1b}[2J\nsdk=1.7.1\n".utf8)), "bytes other than printable ASCII lines"),
        (Frame(kind: Hello.kind, payload: [UInt8](repeating: 10, count: 70_000)), "more than 65536 bytes"),
        (
            Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1\nroutes=GeoRoute,,../x\n".utf8)),
            "routes 'GeoRoute,,../x' in line 4, not names separated by commas"
        ),
        (
            Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1\nlanguage=../de\nroutes=GeoRoute\n".utf8)),
            "language '../de' in line 4, not a locale code"
        ),
        (
            Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1\nlanguage=\n".utf8)),
            "language '' in line 4, not a locale code"
        ),
        (
            Frame(kind: Hello.kind, payload: Array("protocol=1\nhost=0.1.0\nsdk=1.7.1\npasses=library,../x\nlanguage=de\n".utf8)),
            "passes 'library,../x' in line 4, not names separated by commas"
        ),
    ])
    func aHelloThatIsNotOneIsRefusedSayingWhy(frame: Frame, reason: String) {
        #expect(throws: WireError.malformedHello(reason)) { _ = try Hello(frame) }
    }

    @Test func sidesThatDisagreeAreToldWhy() {
        let older = Hello(protocolVersion: 2, hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [])
        #expect(Hello.mismatch(mine: host, theirs: older) == "it speaks wire protocol 2, the host 1")
        let otherContracts = Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("FixtureContracts", "1.1.0")])
        #expect(Hello.mismatch(mine: host, theirs: otherContracts) == "it has FixtureContracts 1.1.0, the host 1.0.0")
        let fewer = Hello(hostVersion: "0.1.0", sdkVersion: "1.7.1", contracts: [("Contracts", "1.7.1")])
        #expect(Hello.mismatch(mine: host, theirs: fewer) == nil)
    }
}
