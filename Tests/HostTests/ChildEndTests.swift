import Glibc
import HostProcesses
import Testing

/// A child's end told from its real wait status: processes that exit, fault and are killed.
@Suite struct ChildEndTests {
    /// Runs `script` in `sh`, optionally sending `signal` to it once started; its wait status.
    func status(of script: String, sending signal: Int32? = nil) throws -> Int32 {
        let pid = try #require(ChildCommand.spawn(["/bin/sh", "-c", script], output: .discarded))
        // Whether it lands on the shell or on the `sleep` it became, the end is that signal's.
        if let signal { kill(pid, signal) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    @Test func anExitIsTheChildsOwnEnd() throws {
        let end = ChildEnd(waitStatus: try status(of: "exit 3"))
        #expect(end == .exited(3))
        #expect(end?.countsAgainstTheModule == true)
    }

    @Test func aFaultIsTheChildsOwnCrash() throws {
        // The shell sends itself SIGSEGV: the wait status a bad pointer ends a process with.
        let end = ChildEnd(waitStatus: try status(of: "kill -SEGV $$"))
        #expect(end == .crashed(signal: SIGSEGV))
        #expect(end?.countsAgainstTheModule == true)
    }

    @Test func aKillFromOutsideDoesNotCountAgainstIt() throws {
        let end = ChildEnd(waitStatus: try status(of: "exec sleep 30", sending: SIGKILL))
        #expect(end == .killedFromOutside(signal: SIGKILL))
        #expect(end?.countsAgainstTheModule == false)
        #expect(end?.description.contains("from outside") == true)
    }

    @Test func theHostsOwnSignalIsNamedAsTheHosts() throws {
        let end = ChildEnd(waitStatus: try status(of: "exec sleep 30", sending: SIGKILL), sentByHost: SIGKILL)
        #expect(end == .endedByHost(signal: SIGKILL))
        #expect(end?.countsAgainstTheModule == false)
    }
}
