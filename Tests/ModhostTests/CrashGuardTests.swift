import Foundation
import TestSupport
import Testing

/// A copy of a hostile C library whose placeholder fingerprint is replaced by the host's, so
/// the host really opens it (in a private 0700 folder, as the trust rules require).
func armedCopy(of name: String, fingerprint: String) throws -> String {
    let folder = try TestEnvironment.temporaryFolder()
    chmod(folder, 0o700)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library(name))))
    let placeholder = [UInt8](repeating: UInt8(ascii: "f"), count: 32)
    guard let start = (0...(bytes.count - 32)).first(where: { Array(bytes[$0..<$0 + 32]) == placeholder }) else {
        throw CocoaError(.fileReadCorruptFile)
    }
    bytes.replaceSubrange(start..<start + 32, with: Array(fingerprint.utf8))
    let path = folder + "/lib\(name).so"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
}

@Suite struct CrashGuardTests {
    @Test func aConstructorThatAbortsIsNamedThenSkippedThenRetried() throws {
        let version = try modhost(["--version"]).stdout
        let fingerprint = String(version.split(separator: " ").last?.dropLast(2) ?? "")
        let library = try armedCopy(of: "HostileAbortInConstructor", fingerprint: fingerprint)
        let path = try config([("FixtureProvider", ""), ("HostileAbortInConstructor", #""library": "\#(library)""#)])
        let data = try TestEnvironment.temporaryFolder()
        let first = try modhost(["--config", path, "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(first.status == SIGABRT, "the crash proceeds as before: killed by SIGABRT")
        #expect(
            first.errorLines.first
                == "modhost: error: module 'HostileAbortInConstructor' crashed the host in load (SIGABRT); it is skipped from the next start; 'modhost --retry HostileAbortInConstructor' tries it again"
        )
        let second = try modhost(["--config", path, "modules", "--json"], environment: ["MODHOST_DATA_DIR": data])
        #expect(second.status == 0)
        #expect(second.stdout.contains("crashed the host on "))
        #expect(second.stdout.contains("in load (SIGABRT); 'modhost --retry HostileAbortInConstructor' tries it again"))
        #expect(second.stdout.contains(#""state" : "active""#), "the other module still starts")
        let check = try modhost(
            ["--config", path, "check", "--retry", "HostileAbortInConstructor"], environment: ["MODHOST_DATA_DIR": data])
        #expect(check.status == 1)
        #expect(check.stderr.contains("crashes the host when it is loaded (SIGABRT, checked in a child process)"))
        let retried = try modhost(
            ["--config", path, "--retry", "HostileAbortInConstructor", "modules"], environment: ["MODHOST_DATA_DIR": data])
        #expect(retried.status == SIGABRT, "a retry really opens it again")
    }
}
