import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `modules --timing` tells what each module cost the start, from the runtime's own clock.
@Suite struct StartTimingTests {
    struct Document: Decodable {
        struct Module: Decodable {
            struct Timing: Decodable {
                let checks, load, configuration, register, start, total: Double
                let memoryBytes: Int?
            }
            let name: String
            let state: String
            let timing: Timing?
        }
        let modules: [Module]
        let startMilliseconds: Double?
    }

    @Test func eachModuleHasItsPhasesItsShareAndItsMemory() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", ""), ("Auth", #""enabled": false"#)])
        let table = try host.run("modules", "--timing")
        #expect(table.succeeded, "\(table)")
        let lines = table.outputLines
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true) == [
                "MODULE", "CHECKS", "LOAD", "CONFIG", "REGISTER", "START", "TOTAL", "SHARE", "MEMORY",
            ])
        for name in ["Geo", "Settings"] {
            let row = try #require(lines.first { $0.hasPrefix(name + " ") }).split(separator: " ", omittingEmptySubsequences: true)
            #expect(row.count == 16, "\(row)")  // the name, six "N ms", a share, "N KiB"
            #expect(row.contains { $0.hasSuffix("%") })
        }
        #expect(lines.contains { $0.hasPrefix("Auth ") && $0.contains(" - ") }, "a disabled module cost nothing")
        #expect(lines.last?.hasPrefix("The whole start took ") == true)

        let json = try host.json(Document.self, "modules", "--json", "--timing")
        let start = try #require(json.startMilliseconds)
        let timings = json.modules.compactMap(\.timing)
        #expect(timings.count == 2)
        for timing in timings {
            #expect(timing.load > 0 && timing.total >= timing.load + timing.register + timing.start)
            #expect((timing.memoryBytes ?? -1) >= 0)
        }
        #expect(timings.map(\.total).reduce(0, +) <= start, "the modules' phases are part of the whole start")
        #expect(json.modules.first { $0.name == "Auth" }?.timing == nil)
        let plain = try host.json(Document.self, "modules", "--json")
        #expect(plain.startMilliseconds == nil && plain.modules.allSatisfy { $0.timing == nil })
    }
}
