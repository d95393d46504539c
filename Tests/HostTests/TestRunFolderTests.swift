import CTestRun
import Foundation
import TestSupport
import Testing

/// The tests' own temporary files (`Tests/CTestRun`): one folder per test process, its `TMPDIR`
/// from load on, which children inherit; the folders of ended runs are removed.
@Suite struct TestRunFolderTests {
    @Test func temporaryFoldersLieInTheRunsFolderAndChildrenInheritIt() throws {
        let run = try #require(TestEnvironment.runFolder)
        #expect(ProcessInfo.processInfo.environment["TMPDIR"] == run)
        #expect(try TestEnvironment.temporaryFolder().hasPrefix(run + "/"))
        let child = try ChildProcess.run("/bin/sh", ["-c", "echo \"$TMPDIR\""])
        #expect(child.stdout == run + "\n")
    }

    /// A run folder whose `.lock` nobody holds (or that has none) is removed, read-only and
    /// unreadable folders in it included; a held one and one just being made (`new-…`) are left.
    @Test func onlyTheFoldersOfEndedRunsAreRemoved() throws {
        let root = try TestEnvironment.temporaryFolder()
        func make(_ run: String, lock: Bool) throws {
            let inner = "\(root)/\(run)/deep/read-only"
            try FileManager.default.createDirectory(atPath: inner + "/unreadable", withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: inner + "/file"))
            chmod(inner + "/unreadable", 0)
            chmod(inner, 0o500)
            chmod("\(root)/\(run)/deep", 0o500)
            if lock { try Data().write(to: URL(fileURLWithPath: "\(root)/\(run)/.lock")) }
        }
        try make("run-ended", lock: true)
        try make("run-running", lock: true)
        try make("run-lockless", lock: false)
        try make("new-starting", lock: false)
        let held = open("\(root)/run-running/.lock", O_RDWR | O_CLOEXEC)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        modhost_test_remove_ended_runs(root)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["new-starting", "run-running"])
    }
}
