import Foundation
import TestSupport
import Testing

/// The bytes that run are the bytes that were checked: a symlinked library swapped while the
/// host checks and loads it never runs the other file, and a symlink someone else could
/// replace is not followed at all. The evil library is `HostileLeavesEvidence`, whose
/// constructor appends its uid to the file `MODHOST_TEST_EVIDENCE` names.
///
/// It races a swapper run as another user against the load, with links it makes by hand:
/// not a world.
@Suite(.serialized) struct LoadRaceTests {
    /// Host starts per case: enough to lose a race that is there to lose (on b6886fb, 12 of 60
    /// starts ran the other user's constructor).
    static let runs = 200

    /// The real library and the evil one, each in a folder of its own, plus the folder the
    /// symlink `libX.so` lives in. The real one is either FixtureProvider with the contracts
    /// library it needs beside it (loaded through a private folder of links), or Geo with
    /// nothing beside it but its resources (loaded from `/proc/self/fd/N`: the common path).
    struct Stage {
        let module: String
        let good: String
        let evil: String
        let links: String
        let evidence: String
        var link: String { links + "/libX.so" }

        /// `modhost modules` with the module loaded through the symlink, pinned or not.
        func config(pinned: Bool) throws -> String {
            let pin = pinned ? #", "sha256": "\#(try Self.sha256(good))""# : ""
            return try TestEnvironment.write(TestEnvironment.modulesJSON([(module, #""library": "\#(link)"\#(pin)"#)]))
        }

        static func sha256(_ path: String) throws -> String {
            String(try ChildProcess.run("/usr/bin/sha256sum", [path]).stdout.prefix(64))
        }

        /// The shell loop that swaps the symlink between the two libraries with rename(2).
        var swapLoop: String {
            "cd '\(links)' && while :; do ln -sfn '\(good)' t && mv -Tf t libX.so; ln -sfn '\(evil)' t && mv -Tf t libX.so; done"
        }

        var ranEvil: Bool { FileManager.default.fileExists(atPath: evidence) }
    }

    /// A stage whose folders are all reachable by `nobody` (mode 0755), for FixtureProvider
    /// (`alone: false`) or Geo (`alone: true`).
    static func stage(alone: Bool = false) throws -> Stage {
        let base = try TestEnvironment.temporaryFolder()
        chmod(base, 0o755)
        let good = base + "/good"
        let links = base + "/links"
        for folder in [good, links] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        let module = alone ? "Geo" : "FixtureProvider"
        for name in alone ? ["libGeo.so", "Geo_GeoFeature.resources"] : ["libFixtureProvider.so", "libFixtureContracts.so"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: good + "/" + name)
        }
        let armed = try HostileLibrary.armedCopy(of: "HostileLeavesEvidence")
        let evil = base + "/evil"
        try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: armed, toPath: evil + "/libHostileLeavesEvidence.so")
        for path in [base, good, links, evil] { chmod(path, 0o755) }
        symlink(good + "/lib\(module).so", links + "/libX.so")
        return Stage(
            module: module, good: good + "/lib\(module).so", evil: base + "/evil/libHostileLeavesEvidence.so", links: links,
            evidence: base + "/evidence")
    }

    /// Starts `modhost` `runs` times with `config` while `swapper` runs; the outputs.
    static func race(_ stage: Stage, config: String, swapper: RunningProcess, runs: Int) throws -> [ProcessResult] {
        try (0..<runs).map { _ in
            try ChildProcess.run(
                TestEnvironment.modhost, ["--config", config, "modules"], environment: ["MODHOST_TEST_EVIDENCE": stage.evidence],
                deadline: 60)
        }
    }

    /// Both ways a library is loaded: through a folder of links (a dependency beside it) and
    /// from its descriptor (nothing beside it).
    @Test(arguments: [false, true])
    func aSymlinkSwappedWhileTheHostLoadsNeverRunsTheOtherFile(alone: Bool) throws {
        // The same user swaps the link in a folder only they can write: the host may see
        // either file, but runs only the one whose sha256 it checked against the pin.
        let stage = try Self.stage(alone: alone)
        chmod(stage.links, 0o700)
        let config = try stage.config(pinned: true)
        let swapper = try ChildProcess.start("/bin/sh", ["-c", stage.swapLoop])
        defer { swapper.send(SIGKILL) }
        let results = try Self.race(stage, config: config, swapper: swapper, runs: Self.runs)
        #expect(!stage.ranEvil, "the evil library ran: \((try? String(contentsOfFile: stage.evidence, encoding: .utf8)) ?? "")")
        // The module's own row of the table says it is active.
        let loaded = results.filter { result in
            result.stdout.split(separator: "\n").contains { $0.hasPrefix(stage.module + " ") && $0.contains(" active ") }
        }.count
        let refused = results.filter { $0.stdout.contains("has sha256") }.count
        #expect(loaded + refused == Self.runs, "each run either loaded the checked file or refused the other")
        #expect(loaded > 0, "the pinned library loads through the symlink")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to run the swapper as nobody"), arguments: [false, true])
    func anotherUsersSwappedSymlinkNeverRunsTheirCodeAsRoot(alone: Bool) throws {
        let stage = try Self.stage(alone: alone)
        #expect(chown(stage.links, 65534, 65534) == 0)
        #expect(lchown(stage.link, 65534, 65534) == 0)
        #expect(chown(stage.evil, 65534, 65534) == 0)
        #expect(chown((stage.evil as NSString).deletingLastPathComponent, 65534, 65534) == 0)
        let swapper = try ChildProcess.start(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", stage.swapLoop])
        defer { swapper.send(SIGKILL) }
        var results: [ProcessResult] = []
        for pinned in [true, false] {
            results += try Self.race(stage, config: try stage.config(pinned: pinned), swapper: swapper, runs: Self.runs)
        }
        #expect(!stage.ranEvil, "nobody's library ran as root: \((try? String(contentsOfFile: stage.evidence, encoding: .utf8)) ?? "")")
        let refusal =
            "reason: library '\(stage.link)' goes through symlink '\(stage.link)', in folder '\(stage.links)' (owner nobody (uid 65534), mode 0755), where another user could replace it; point at the file itself, or keep the link in a folder only root or you can write"
        #expect(results.allSatisfy { $0.stdout.contains(refusal) }, "\(results.first.map(\.stdout) ?? "")")
    }

    @Test func aSymlinkInAStickyFolderIsNotFollowed() throws {
        // /tmp-like: anyone may plant a link under a name not yet taken.
        let stage = try Self.stage()
        chmod(stage.links, 0o1777)
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureProvider", "")]).replacingOccurrences(
                of: #""searchPaths": ["\#(TestEnvironment.buildFolder)"]"#, with: #""searchPaths": ["\#(stage.links)"]"#))
        rename(stage.link, stage.links + "/libFixtureProvider.so")
        let result = try modhost(["--config", config, "check"])
        #expect(result.status == 1)
        let link = stage.links + "/libFixtureProvider.so"
        #expect(
            result.stderr
                == "modhost: error: '\(config)': modules[0] ('FixtureProvider'): library '\(link)' goes through symlink '\(link)', in folder '\(stage.links)' (owner \(TrustTests.owner()), mode 01777), where another user could replace it; point at the file itself, or keep the link in a folder only root or you can write\n"
        )
    }
}

/// What the dynamic linker opens is the checked descriptor, never the configured path, on
/// both ways a library is loaded — told by the linker itself (`LD_DEBUG=files`), so that no
/// race has to be lost to see it.
@Suite struct WhatTheLinkerMapsTests {
    @Test func everyModuleLibraryIsOpenedFromItsCheckedDescriptor() throws {
        let alone = try LoadRaceTests.stage(alone: true)
        let beside = try LoadRaceTests.stage(alone: false)
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([
                ("Geo", #""library": "\#(alone.link)""#), ("FixtureProvider", #""library": "\#(beside.link)""#),
            ]))
        let result = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "modules"], environment: ["LD_DEBUG": "files"])
        #expect(result.stdout.contains("Geo") && result.stdout.contains("FixtureProvider"), "\(result)")
        #expect(result.stdout.split(separator: "\n").filter { $0.contains(" active ") }.count == 2, "\(result.stdout)")
        let opened = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file="), line.contains("dynamically loaded by") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " })
        }
        // Geo has nothing beside it: its descriptor, by number.
        #expect(opened.contains { $0.hasPrefix("/proc/self/fd/") }, "\(opened)")
        // FixtureProvider has its contracts library beside it: the private folder of links.
        #expect(opened.contains { $0.contains("/modhost-load-") && $0.hasSuffix("/libFixtureProvider.so") }, "\(opened)")
        // Never a path that was configured, resolved or checked.
        for path in [alone.link, alone.good, beside.link, beside.good] {
            #expect(!result.stderr.contains("file=\(path)"), "the linker opened '\(path)' itself")
        }
    }
}
