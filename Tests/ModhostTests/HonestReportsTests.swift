import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// What `modules` reports is the whole truth whatever the reason a module is not running, and
/// fits the terminal it is shown on.
@Suite struct HonestReportsTests {
    @Test func aDisabledModuleShowsItsVersionAndRoutesFromItsDescriptor() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")])
        let table = try host.run("--disable", "Geo", "modules")
        #expect(table.stdout.contains("Geo      disabled 1.0.0   GeoRoute      -        SettingsRoute\n"), "\(table.stdout)")
        let geo = try #require(try host.json(ModuleList.self, "--disable", "Geo", "modules", "--json").modules.first)
        #expect(geo.state == "disabled" && geo.version == "1.0.0")
        #expect(geo.provides == ["GeoRoute"] && geo.uses == ["SettingsRoute"])
        // The same as --only shows for a module it leaves out.
        let only = try host.run("--only", "Settings", "modules")
        #expect(only.stdout.contains("Geo      disabled 1.0.0   GeoRoute      -        SettingsRoute\n"), "\(only.stdout)")
    }

    @Test func aLongReasonWrapsOnATerminalAndStaysOneLinePiped() throws {
        let host = try TestHost(entries: [("FixtureNeedsNobody", ""), ("Geo", #""enabled": false"#)])
        let piped = try host.run("modules")
        let reason = try #require(piped.outputLines.first { $0.hasPrefix("    reason: ") })
        #expect(reason.count > 60, "the reason this test needs is long: \(reason)")
        let terminal = try host.app("modules", rows: 30, columns: 60)
        _ = try terminal.waitForExit()
        let lines = terminal.output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("    reason: ") })
        let block = lines[start...].prefix { $0.hasPrefix("    ") }
        #expect(block.count > 1, "wrapped by the host: \(lines)")
        #expect(block.allSatisfy { $0.count <= 60 }, "\(lines)")
        let rejoined = block.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rejoined.joined(separator: " ") == reason.trimmingCharacters(in: .whitespaces), "no word lost")
    }

    /// Every option that names modules names the nearest when one is mistyped, else the ones
    /// there are.
    @Test func aNameThatIsNoModuleGetsTheNearestOrTheList() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")])
        let path = host.config
        for (arguments, hint) in [
            (["--only", "Nope"], "; its modules are Geo, Settings"), (["--retry", "Geoo"], "; did you mean 'Geo'?"),
            (["--enable", "Setings"], "; did you mean 'Settings'?"), (["--disable", "X"], "; its modules are Geo, Settings"),
        ] {
            let result = try host.run(arguments: arguments + ["modules"])
            #expect(result.status == 2)
            #expect(
                result.errorLines == [
                    "modhost: error: \(arguments[0]) '\(arguments[1])': no module named '\(arguments[1])' in '\(path)'\(hint)"
                ],
                "\(result.stderr)")
        }
        #expect(try host.run("--retry", "all", "modules").succeeded)
    }

    struct ModuleList: Decodable {
        let modules: [ModuleStatus]
    }
}
