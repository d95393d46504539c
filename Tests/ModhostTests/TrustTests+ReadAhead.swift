import Foundation
import TestSupport
import Testing

extension TrustTests {
    /// Sixteen modules and more have what each load reads of its file read ahead, two at a
    /// time: each outcome is still its own module's. The libraries with a relative run path are
    /// refused before they load, and a module whose contracts library lies beside it
    /// (FixtureConsumer) loads it with itself.
    @Test func manyLibrariesReadAheadTwoAtATimeKeepEachItsOwnOutcome() throws {
        let folder = try TestEnvironment.temporaryFolder()
        var entries: [(String, String)] = [
            "Auth", "Geo", "Settings", "Photos", "FixtureProvider", "FixtureConsumer", "FixtureOptional", "FixtureThrowsOnStart",
            "FixtureRouteUser", "FixtureMisbehaves", "FixtureNeedsMisbehaviour", "FixtureSandboxProbe", "FixtureSplitProvider",
        ].map { ($0, "") }
        let refused = ["RelativeA", "RelativeB", "RelativeC", "RelativeD"]
        for name in refused {
            // HostileLeavesEvidence's constructor under a name of its own.
            let source = folder + "/\(name).c"
            let evidenceSource = try String(
                contentsOfFile: Self.repository + "/Tests/Fixtures/Hostile/HostileLeavesEvidence/HostileLeavesEvidence.c", encoding: .utf8)
            try evidenceSource.replacingOccurrences(of: "\"HostileLeavesEvidence\"", with: "\"\(name)\"")
                .replacingOccurrences(of: "../descriptor.h", with: Self.repository + "/Tests/Fixtures/Hostile/descriptor.h")
                .write(toFile: source, atomically: true, encoding: .utf8)
            let path = folder + "/lib\(name).so"
            let built = try ChildProcess.run("/usr/bin/gcc", ["-shared", "-fPIC", "-Wl,-rpath,$ORIGIN/../lib", "-o", path, source])
            #expect(built.status == 0, "\(built.stderr)")
            try HostileLibrary.arm(libraryAt: path, name: name)
            entries.insert((name, #""library": "\#(path)""#), at: entries.count / 2)
        }
        let evidence = try TestEnvironment.temporaryFolder() + "/evidence"
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON(entries))
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_TEST_EVIDENCE": evidence])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func row(_ name: String) -> (state: String, reason: String) {
            guard let index = lines.firstIndex(where: { $0.split(separator: " ").first.map(String.init) == name }) else { return ("", "") }
            let state = lines[index].split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            return (state, next.hasPrefix("    reason: ") ? String(next.dropFirst("    reason: ".count)) : "")
        }
        for name in refused {
            #expect(row(name).state == "failed", "\(name): \(result.stdout)")
            #expect(
                row(name).reason == "library '\(folder)/lib\(name).so' has run path '$ORIGIN/../lib', relative to its own folder, "
                    + "which the host cannot honour while it loads the file it checked; link it with run path '$ORIGIN' and put the "
                    + "libraries it needs beside it", "\(name): \(row(name).reason)")
        }
        #expect(!FileManager.default.fileExists(atPath: evidence), "no refused constructor ran")
        for (name, _) in entries where !refused.contains(name) && name != "FixtureThrowsOnStart" {
            #expect(row(name).state == "active", "\(name): \(result.stdout)")
        }
        #expect(row("FixtureThrowsOnStart").reason == "threw in start: alarm hardware not found")
    }
}
