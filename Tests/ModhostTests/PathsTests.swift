import Foundation
import TestSupport
import Testing

/// Paths as a person writes them: relative, through symlinks, with a NUL; and the host's own
/// folder in the data folder, which decides which modules run.
///
/// They write modules.json and run modhost from folders of their own (relative paths, the
/// current folder), which a ModuleHostTesting world decides for them: not a world.
@Suite struct PathsTests {
    @Test func aRelativeLibraryIsTakenFromTheFolderOfModulesJSONHoweverConfigIsWritten() throws {
        let app = try TestEnvironment.temporaryFolder()
        let config = app + "/conf"
        try FileManager.default.createDirectory(atPath: config + "/plugins", withIntermediateDirectories: true)
        for name in ["libFixtureProvider.so", "libFixtureContracts.so"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: config + "/plugins/" + name)
        }
        let json = TestEnvironment.modulesJSON([("FixtureProvider", #""library": "plugins/libFixtureProvider.so""#)])
        try Data(json.utf8).write(to: URL(fileURLWithPath: config + "/modules.json"))
        chmod(config + "/modules.json", 0o600)
        for (folder, path) in [(config, "modules.json"), (app, "conf/modules.json"), (config + "/plugins", "../modules.json")] {
            let result = try modhost(["--config", path, "modules"], in: folder)
            #expect(result.stdout.contains("FixtureProvider active"), "from \(folder) with \(path): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func aNULInAPathOfModulesJSONIsRefused() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureProvider", #""library": "/tmp/libX.so\u0000/etc/passwd""#)]))
        let result = try modhost(["--config", config, "check"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "modhost: error: '\(config)': modules[0] ('FixtureProvider'): 'library' holds a NUL character (\\u0000), which no path can; remove it\n"
                + "modhost: error: '\(config)': modules[0] ('FixtureProvider'): not loaded while its 'library' or 'sha256' in the file is wrong (above)\n"
        )
    }

    @Test func aDataFolderBelowASymlinkedParentIsUsedByItsResolvedPath() throws {
        let base = try TestEnvironment.temporaryFolder()
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        symlink(base + "/real", base + "/link")
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        let added = try modhost(
            ["--config", config, "--data-dir", base + "/link/data", "geo", "add", "--country", "FR", "--city", "Paris"])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try modhost(["--config", config, "--data-dir", base + "/link/data", "geo", "list"])
        #expect(listed.stdout.contains("Paris"))
        #expect(FileManager.default.fileExists(atPath: base + "/real/data/Geo/geo.sqlite"))
    }

    @Test func aDataFolderThroughASymlinkOthersCouldReplaceIsRefusedNamingItAndLeavesNothing() throws {
        let base = try TestEnvironment.temporaryFolder()
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: true)
        chmod(base + "/open", 0o777)
        symlink(base + "/real", base + "/open/link")
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        let result = try modhost(
            ["--config", config, "--data-dir", base + "/open/link/data", "geo", "add", "--country", "FR", "--city", "Paris"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the data folder '\(base)/open/link/data' cannot be used: goes through symlink '\(base)/open/link' in '\(base)/open' (owner \(TrustTests.owner()), mode 0777), which another user could replace"
            ), "\(result.stderr)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: base + "/real")).isEmpty, "nothing made through the link")
    }

    @Test func aRelativeDataFolderIsCreatedLikeAnAbsoluteOne() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        let added = try modhost(
            ["--config", config, "--data-dir", "state/data", "geo", "add", "--country", "FR", "--city", "Paris"], in: folder)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/state/data/Geo/geo.sqlite"))
    }

    /// A record naming Settings as crashed, for the current build of libSettings.so.
    func plantedRecord() throws -> String {
        let library = TestEnvironment.library("Settings")
        var status = stat()
        #expect(stat(library, &status) == 0)
        return
            "Settings\tstart\t1796120950\t\(library)\t\(status.st_size)\t\(status.st_mtim.tv_sec)\t\(status.st_mtim.tv_nsec)\t\(status.st_ino)\t0.0\tsignal SIGSEGV\n"
    }

    @Test func aLooseModhostFolderIsTightenedAndItsRecordsObeyed() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Settings", "")]))
        try FileManager.default.createDirectory(atPath: data + "/.modhost", withIntermediateDirectories: true)
        try Data(try plantedRecord().utf8).write(to: URL(fileURLWithPath: data + "/.modhost/crashes"))
        chmod(data + "/.modhost", 0o777)
        chmod(data + "/.modhost/crashes", 0o666)
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.stdout.contains("Settings failed"), "a record of the user's own is obeyed")
        for (path, expected) in [(data + "/.modhost", 0o700), (data + "/.modhost/crashes", 0o600)] {
            var status = stat()
            #expect(stat(path, &status) == 0 && Int(status.st_mode & 0o777) == expected, "\(path)")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another user"))
    func aModhostFolderOfAnotherUserIsNotObeyed() throws {
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Settings", "")]))
        try FileManager.default.createDirectory(atPath: data + "/.modhost", withIntermediateDirectories: true)
        try Data(try plantedRecord().utf8).write(to: URL(fileURLWithPath: data + "/.modhost/crashes"))
        #expect(chown(data + "/.modhost", 65534, 65534) == 0)
        #expect(chown(data + "/.modhost/crashes", 65534, 65534) == 0)
        chmod(data + "/.modhost", 0o777)
        let result = try modhost(["--config", config, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(result.stdout.contains("Settings active"), "\(result.stdout)")
        #expect(
            result.stderr.hasPrefix(
                "modhost: warn: crash records are neither read nor obeyed: '\(data)/.modhost' belongs to nobody (uid 65534) (mode 0777)"),
            "\(result.stderr)")
    }
}
