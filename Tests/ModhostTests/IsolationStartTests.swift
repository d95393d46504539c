import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The start of a module's own process: as soon as the run is known to need it (the command
/// line, then modules.json), beside the host's own start; ended without a word, and reaped,
/// when the run then does not need it; and checking its module alone.
@Suite struct IsolationStartTests {
    struct Report: Decodable {
        struct Module: Decodable {
            let name: String
            let state: String
            let reason: String?
            let processID: Int32?
        }
        let modules: [Module]
    }

    /// An isolated module's process is started before the host's checks (its start runs beside
    /// the host's); when the module then fails them, the process ends without a word, having
    /// opened nothing, and is gone when the host is.
    @Test func aProcessStartedBeforeItsModuleFailsItsChecksEndsQuietly() throws {
        let host = try TestHost(entries: [("Geo", "")])
        let pinned =
            #"{ "environment": "test", "modules": [{ "name": "Geo", "enabled": true, "sha256": "\#(String(repeating: "0", count: 64))" }] }"#
        try Data(pinned.utf8).write(to: URL(fileURLWithPath: host.config))
        let result = try host.run("--isolate", "Geo", "--log-level", "debug", "modules", "--json")
        let said = result.stderr.split(separator: "\n").filter { !$0.contains("debug: trust:") && !$0.contains("debug: load") }
        #expect(result.succeeded, "\(result)")
        // Started before the checks, ended unused after them; nothing else said.
        let started = said.first { $0.contains("module 'Geo': its process (") && $0.hasSuffix(") started before the checks") }
        let ended = said.first { $0.contains("module 'Geo': its process (") && $0.hasSuffix(") ended unused: the module is not loaded") }
        #expect(started != nil && ended != nil, "\(result.stderr)")
        #expect(said.allSatisfy { $0.hasPrefix("modhost: debug: ") }, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        let geo = try #require(report.modules.first { $0.name == "Geo" })
        #expect(geo.state == "failed" && (geo.reason ?? "").contains("pins 0000"), "\(geo)")
        let left = try moduleProcesses(of: host)
        #expect(left.isEmpty, "no module process left: \(left)")
        // Unpinned, the process started before the checks is the one the module runs in.
        try host.write([TestHost.Module(name: "Geo")])
        let used = try host.run("--isolate", "Geo", "--log-level", "debug", "modules", "--json")
        let runs = try #require(try JSONDecoder().decode(Report.self, from: Data(used.stdout.utf8)).modules.first?.processID)
        #expect(used.stderr.contains("module 'Geo': its process (\(runs)) started before the checks"), "\(used.stderr)")
        #expect(!used.stderr.contains("ended unused"), "\(used.stderr)")
    }

    /// The processes of modules running for `host` (their command line names its data folder).
    func moduleProcesses(of host: TestHost) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { pid in
            guard Int(pid) != nil, let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains("__module-host") && words.contains(host.dataFolder)
        }
    }

    /// `--isolate` starts its module's process before modules.json is read; when the file then
    /// fails its checks, or holds no such module, or leaves it disabled, the host says only
    /// that, and no process of it is left. A command that starts no module starts none.
    @Test func aProcessTheCommandLineStartsEarlyEndsWithTheRunThatDidNotNeedIt() throws {
        let host = try TestHost(entries: [("Geo", "")])
        let config = try String(contentsOfFile: host.config, encoding: .utf8)
        try Data("{ \"modules\": [".utf8).write(to: URL(fileURLWithPath: host.config))
        let broken = try host.run("--isolate", "Geo", "modules")
        #expect(broken.status == 1 && broken.stderr.contains(host.config) && broken.stdout.isEmpty, "\(broken)")
        #expect(!broken.stderr.contains("__module-host") && !broken.stderr.contains("the host"), "\(broken.stderr)")
        #expect(try moduleProcesses(of: host).isEmpty)

        try Data(config.utf8).write(to: URL(fileURLWithPath: host.config))
        let unknown = try host.run("--isolate", "Nowhere", "modules")
        #expect(unknown.status == 2 && unknown.stderr.contains("no module named 'Nowhere'"), "\(unknown)")
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
        #expect(try moduleProcesses(of: host).isEmpty)

        try host.write([TestHost.Module(name: "Geo", enabled: false)])
        let disabled = try host.run("--isolate", "Geo", "--log-level", "debug", "modules")
        #expect(disabled.succeeded && disabled.stderr.contains("ended unused: the module is not loaded"), "\(disabled)")
        #expect(try moduleProcesses(of: host).isEmpty)

        try host.write([TestHost.Module(name: "Geo")])
        let checked = try host.run("--isolate", "Geo", "--log-level", "debug", "check")
        #expect(checked.succeeded && !checked.stderr.contains("started before the checks"), "\(checked)")
        // Named in another case than modules.json's, the process started early is the one used.
        let used = try host.run("--isolate", "geo", "--log-level", "debug", "modules", "--json")
        let runs = try #require(try JSONDecoder().decode(Report.self, from: Data(used.stdout.utf8)).modules.first?.processID)
        #expect(used.stderr.contains("its process (\(runs)) started before the checks"), "\(used.stderr)")
        #expect(!used.stderr.contains("ended unused"), "\(used.stderr)")
        #expect(try moduleProcesses(of: host).isEmpty)
    }

    /// A module's own process reads only its module's library: what the host says of another
    /// module as it checks it (a 'deny' that takes nothing away) is said once, not again by
    /// every module process (each shares the host's standard error).
    @Test func aModulesProcessChecksItsModuleAlone() throws {
        let host = try TestHost(entries: [("Geo", "")])
        let config = #"""
            { "environment": "test", "modules": [
              { "name": "Geo", "enabled": true },
              { "name": "Settings", "enabled": true, "deny": ["read /etc/hostname"] } ] }
            """#
        try Data(config.utf8).write(to: URL(fileURLWithPath: host.config))
        let result = try host.run("--isolate", "Geo", "modules")
        #expect(result.succeeded, "\(result)")
        let said = result.stderr.split(separator: "\n").filter { $0.contains("'deny' lists 'read /etc/hostname'") }
        #expect(said.count == 1, "\(result.stderr)")
    }
}
