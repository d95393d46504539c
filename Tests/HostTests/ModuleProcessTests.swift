import Foundation
import Glibc
import HostProcesses
import HostSandbox
import ModuleKit
import TestSupport
import Testing

/// A module in a process of its own, first step: the real `modhost` started in its module-host
/// mode with Geo, the hellos said over a real socketpair, pings answered, and each way the
/// process can end told apart.
@Suite struct ModuleProcessTests {
    let mine = Hello(hostVersion: "0.1.0", sdkVersion: ModuleKitABI.sdkVersion, contracts: [("Contracts", ModuleKitABI.sdkVersion)])

    func config(_ module: String = "Geo") throws -> String {
        try TestEnvironment.write(
            #"{"environment": "test", "searchPaths": ["\#(TestEnvironment.buildFolder)"], "modules": [{"name": "\#(module)", "enabled": true}]}"#
        )
    }

    func start(_ module: String = "Geo", data: String? = nil, passing: [Int32] = []) throws(ModuleProcess.StartError) -> ModuleProcess {
        let folder = data ?? (NSTemporaryDirectory() + "module-process-" + UUID().uuidString)
        let path: String
        do { path = try config(module) } catch { throw .notStarted("\(error)") }
        var environment = ProcessInfo.processInfo.environment
        environment["MODHOST_DATA_DIR"] = folder
        let process = try ModuleProcess(
            .command([TestEnvironment.modhost, "--config", path, "__module-host", module]), hello: mine, passing: passing,
            environment: environment, refusals: SandboxRefusals.watcher(module: module) { _ in })
        // As the host does: its sandboxed process leaves its temporary folder to be removed.
        process.afterEnd = { pid in FolderTree.remove(ModuleProcess.temporaryFolderName(of: pid), inFolderAt: folder + "/" + module) }
        return process
    }

    @Test func theModulesProcessSaysHelloAnswersPingsAndEndsWhenTheLinkCloses() throws {
        let process = try start()
        #expect(process.hello.sdkVersion == ModuleKitABI.sdkVersion)
        #expect(process.hello.hostVersion == "0.1.0")
        for round in 0..<3 { try process.ping(Array("ping \(round)".utf8)) }
        #expect(process.end() == .exited(0))
    }

    @Test func aKillFromOutsideIsToldFromTheModulesOwnEnd() throws {
        let process = try start()
        try process.ping()
        kill(process.pid, SIGKILL)
        #expect(throws: WireError.self) { try process.ping() }
        let end = process.end()
        #expect(end == .killedFromOutside(signal: SIGKILL))
        #expect(end?.countsAgainstTheModule == false)
    }

    /// What the child loads is the file the host checked: given the host's open file of Geo's
    /// library it starts; given another file (as if the library had been replaced between the
    /// two checks), it opens nothing and says why.
    @Test func theChildLoadsOnlyTheFileTheHostChecked() throws {
        let geo = open(TestEnvironment.library("Geo"), O_RDONLY | O_CLOEXEC)
        let other = open(TestEnvironment.library("FixtureRouteUser"), O_RDONLY | O_CLOEXEC)
        defer {
            close(geo)
            close(other)
        }
        let same = try start(passing: [geo])
        try same.ping()
        #expect(same.end() == .exited(0))
        #expect {
            _ = try start(passing: [other])
        } throws: { error in
            guard case .failed(let reason, let end) = error as? ModuleProcess.StartError else { return false }
            return reason == "its library is not the file the host checked: it was replaced or changed in between; not opened"
                && end == .exited(1)
        }
    }

    @Test func aModuleThatIsNotThereIsRefusedWithItsReason() throws {
        // Listed, but no library of that name in the search path.
        #expect {
            _ = try start("Nowhere")
        } throws: { error in
            guard case .failed(let reason, let end) = error as? ModuleProcess.StartError else { return false }
            return reason?.contains("not found") == true && end == .exited(1)
        }
    }

    @Test func aChildThatEndsBeforeItsHelloIsToldAsItEnded() {
        #expect(throws: ModuleProcess.StartError.failed(reason: nil, end: .exited(5))) {
            _ = try ModuleProcess(.command(["/bin/sh", "-c", "exit 5"]), hello: mine) { notify, _, _ in close(notify) }
        }
    }

    @Test func aChildThatNeverAnswersDoesNotHoldTheHost() {
        // `sleep` keeps its end of the link open and says nothing.
        #expect(throws: ModuleProcess.StartError.link(.timedOut)) {
            _ = try ModuleProcess(.command(["/bin/sleep", "30"]), hello: mine, helloLimit: .milliseconds(200)) { notify, _, _ in
                close(notify)
            }
        }
    }
}
