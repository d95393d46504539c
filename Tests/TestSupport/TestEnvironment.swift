import CTestRun
import Foundation

/// Where the build left the host and the test libraries, and scratch folders for tests.
public enum TestEnvironment {
    /// The folder of the running test executable: `.build/<triple>/debug`, which also holds
    /// `modhost` and every `lib<Name>.so`.
    public static let buildFolder: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().path
    }()

    /// The path of `lib<name>.so` in the build folder.
    public static func library(_ name: String) -> String {
        "\(buildFolder)/lib\(name).so"
    }

    /// The checkout this test was built from (this file is Tests/TestSupport/TestEnvironment.swift).
    public static let repository: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The `modhost` executable in the build folder.
    public static var modhost: String { "\(buildFolder)/modhost" }

    /// The folder this test process keeps its temporary files in (its `TMPDIR`, see
    /// `Tests/CTestRun`), or nil when it could not be made.
    public static var runFolder: String? {
        let folder = String(cString: modhost_test_run_folder())
        return folder.isEmpty ? nil : folder
    }

    /// A new, empty folder under the system's temporary folder (the test run's).
    public static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "modhost-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Writes `contents` to `name` in a new temporary folder; returns the file's path.
    public static func write(_ contents: String, named name: String = "modules.json") throws -> String {
        let path = try temporaryFolder() + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        // Whatever the umask: modhost refuses a modules.json that group or others may write.
        chmod(path, 0o600)
        return path
    }

    /// A `modules.json` listing `modules` (name → extra JSON fields), all enabled unless the
    /// fields say otherwise, searching the build folder.
    public static func modulesJSON(_ modules: [(String, String)], environment: String = "test") -> String {
        let entries = modules.map { name, extra in
            let enabled = extra.contains("\"enabled\"") ? "" : #""enabled": true"# + (extra.isEmpty ? "" : ", ")
            return #"    {"name": "\#(name)", \#(enabled)\#(extra)}"#
        }
        return """
            {
              "environment": "\(environment)",
              "searchPaths": ["\(buildFolder)"],
              "modules": [
            \(entries.joined(separator: ",\n"))
              ]
            }
            """
    }
}
