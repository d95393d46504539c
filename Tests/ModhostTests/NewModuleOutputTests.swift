import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `modhost new --output` writes where it was asked and nowhere else: its folder made relative
/// to the folder above, every file relative to the folder it made, and a folder above that
/// others could change refused unless it is sticky. Tried against another user really
/// swapping the name for a link to a folder of root's.
@Suite struct NewModuleOutputTests {
    func new(_ output: String) throws -> ProcessResult {
        try ChildProcess.run(TestEnvironment.modhost, ["new", "Foo", "--output", output])
    }

    @Test func aFolderAboveOthersCanWriteIsRefusedWithTheReason() throws {
        let shared = try TestEnvironment.temporaryFolder() + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o777)
        let refused = try new(shared + "/Foo")
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "modhost: error: new: cannot create '\(shared)/Foo': '\(shared)' can be changed by others than you (owner uid \(geteuid()), mode 0777) and is not sticky, so another user could put something else in its place while it is written; choose a folder only you can write with --output DIR\n"
        )
        #expect(!FileManager.default.fileExists(atPath: shared + "/Foo"))
        // Sticky, as /tmp is: others cannot rename what is made there.
        chmod(shared, 0o1777)
        let made = try new(shared + "/Foo")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: shared + "/Foo/Package.swift"))
    }

    /// A folder above that another user owns is theirs to change, sticky or not: refused with
    /// the owner named (it once said "not sticky" of a sticky one), nothing made in it.
    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to nobody"), arguments: [0o755, 0o1777])
    func aFolderAboveAnotherUserOwnsIsRefused(mode: Int) throws {
        let top = try TestEnvironment.temporaryFolder()
        chmod(top, 0o755)
        let theirs = top + "/theirs"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
        chmod(theirs, mode_t(mode))
        #expect(chown(theirs, 65534, 65534) == 0)
        let refused = try new(theirs + "/Foo")
        #expect(refused.status == 1)
        let octal = "0" + String(mode, radix: 8)
        #expect(
            refused.stderr
                == "modhost: error: new: cannot create '\(theirs)/Foo': it is in folder '\(theirs)', which is owned by nobody (uid 65534) (mode \(octal)), not by root, so another user could change it; fix it with 'chown root \(theirs)' or move it; choose a folder only you can write with --output DIR\n",
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: theirs + "/Foo"))
    }

    /// nobody swaps `Foo` for a link to a folder of root's as fast as it can, moving away what
    /// is there (root's new folder too, where the folder above lets it) and planting the link;
    /// root runs `new` twenty times into a non-sticky shared folder and twenty into a sticky one.
    @Test(.enabled(if: geteuid() == 0, "needs root to run the swapper as nobody"), arguments: [0o777, 0o1777])
    func aSwappedLinkIsNeverFollowed(mode: Int) throws {
        let top = try TestEnvironment.temporaryFolder()
        chmod(top, 0o755)
        let shared = top + "/shared"
        let target = top + "/roots"
        for folder in [shared, target] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        chmod(shared, mode_t(mode))
        chmod(target, 0o755)
        let script =
            "while :; do mv '\(shared)/Foo' '\(shared)/moved-'$$-$RANDOM 2>/dev/null; ln -sfn '\(target)' '\(shared)/Foo' 2>/dev/null; done"
        let swapper = try RunningProgram(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script], environment: [:])
        defer {
            swapper.send(SIGKILL)
            _ = try? swapper.wait(timeout: .seconds(10))
        }
        var made = 0
        for _ in 0..<20 {
            let result = try new(shared + "/Foo")
            if result.status == 0 {
                made += 1
                // Made by root where it was asked: a real folder, not the link (in a sticky
                // folder nobody can move it away).
                var status = stat()
                #expect(lstat(shared + "/Foo", &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && status.st_uid == 0)
                try FileManager.default.removeItem(atPath: shared + "/Foo")
            } else {
                #expect(result.status == 1, "\(result.stderr)")
            }
        }
        let outside = try FileManager.default.contentsOfDirectory(atPath: target)
        #expect(outside.isEmpty, "written through the link: \(outside)")
        if mode == 0o777 { #expect(made == 0, "a non-sticky shared folder is refused") }
    }
}
