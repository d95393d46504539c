import CHostProcess
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HostProcesses

/// What the host uses in place of Foundation's `Thread`, `NSRecursiveLock` and
/// `String(contentsOfFile:)` on `/proc` (FoundationEssentials' returns the first 4 KiB).
@Suite struct HostThreadsAndProcFilesTests {
    @Test func aFileOfProcIsReadToItsEnd() throws {
        // This process maps far more than 4 KiB of lines; `[stack]` and `[vdso]` come after every
        // library the loader mapped at start.
        let maps = try #require(ProcFile.read("/proc/self/maps"))
        #expect(maps.utf8.count > 4096)
        #expect(maps.contains("[stack]") && maps.contains("[vdso]") && maps.hasSuffix("\n"))
        #expect(ProcFile.read("/proc/self/no-such-file") == nil)
    }

    /// A process's children, as the end of a check's probe or of a module's own process ends
    /// them: each thread's `children` list gives what every process's `stat` gives.
    @Test func theChildrenOfThisProcessAreListedFromItsThreads() throws {
        let child = try ChildProcess.start("/bin/sleep", ["30"])
        defer {
            child.send(SIGKILL)
            _ = try? child.wait(deadline: 30)
        }
        let fromTasks = try #require(Descendants.childrenFromTasks(), "this kernel lists a thread's children")
        #expect(fromTasks.contains(child.processIdentifier), "\(fromTasks)")
        #expect(Descendants.childrenFromEveryProcess().contains(child.processIdentifier))
        #expect(Descendants.childrenOfThisProcess().contains(child.processIdentifier))
    }

    /// Whether the process has a child at all, in one call: true while one runs.
    @Test func aRunningChildIsSeen() throws {
        let child = try ChildProcess.start("/bin/sleep", ["30"])
        defer {
            child.send(SIGKILL)
            _ = try? child.wait(deadline: 30)
        }
        #expect(Descendants.hasChildren)
    }

    /// A folder and everything in it removed from descriptors: a link inside (to a folder with
    /// a file) is removed, not followed; a name that is not UTF-8 and an unreadable folder are
    /// removed too; a name that is not there is no failure.
    @Test func aFolderTreeIsRemovedWithoutFollowingItsLinks() throws {
        let base = NSTemporaryDirectory() + "folder-tree-" + UUID().uuidString
        let outside = base + "/outside"
        let tree = base + "/tree"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tree + "/a/b/c", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: outside + "/kept", contents: Data("kept".utf8)))
        #expect(FileManager.default.createFile(atPath: tree + "/a/b/c/file", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: tree + "/top", contents: Data("x".utf8)))
        try FileManager.default.createSymbolicLink(atPath: tree + "/a/link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: tree + "/a/b/file-link", withDestinationPath: outside + "/kept")
        // A name that is not UTF-8, and a folder its owner made unreadable.
        let odd: [CChar] = Array((tree + "/a/").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), CChar(bitPattern: 0xFE), 0]
        let made = open(odd, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(made >= 0)
        close(made)
        #expect(chmod(tree + "/a/b", 0) == 0)
        #expect(FolderTree.remove("tree", inFolderAt: base))
        #expect(!FileManager.default.fileExists(atPath: tree))
        #expect(FileManager.default.contents(atPath: outside + "/kept") == Data("kept".utf8))
        #expect(FolderTree.remove("tree", inFolderAt: base))
        // A folder given through a link is not entered.
        try FileManager.default.createSymbolicLink(atPath: base + "/through", withDestinationPath: outside)
        #expect(!FolderTree.remove("kept", inFolderAt: base + "/through"))
        #expect(FileManager.default.fileExists(atPath: outside + "/kept"))
    }

    @Test func aDetachedThreadRunsItsWorkUnderItsNameAndIsNotTheMainOne() throws {
        let seen = Mutex<(ran: Bool, main: Bool, name: String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(
            DetachedThread.start(named: "a long thread name") {
                let comm = ProcFile.read("/proc/thread-self/comm")?.trimmingCharacters(in: .newlines) ?? ""
                seen.withLock { $0 = (true, DetachedThread.isMain, comm) }
                done.signal()
            })
        #expect(done.wait(timeout: .now() + 60) == .success)
        let result = try #require(seen.withLock { $0 })
        #expect(result.ran && !result.main)
        #expect(result.name == "a long thread n", "cut to the kernel's 15 bytes")
    }

    @Test func sharedWorkCallsEachIndexOnceAndUsesASecondThreadWhereThereIsAProcessor() {
        let count = 40
        let calls = Mutex<[Int: Int]>([:])
        let threads = Mutex<Set<pthread_t>>([])
        let twoProcessors = modhost_usable_processors() > 1
        SharedWork.forEach(count, minimum: 16) { index in
            let thread = pthread_self()
            threads.withLock { _ = $0.insert(thread) }
            calls.withLock { $0[index, default: 0] += 1 }
            // The first index waits (a minute at most) until another thread has taken one, so
            // that both threads are seen whatever the machine's speed.
            guard index == 0, twoProcessors else { return }
            for _ in 0..<60_000 where threads.withLock({ $0.count }) < 2 { usleep(1_000) }
        }
        #expect(calls.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, 1) }))
        #expect(threads.withLock { $0.count } == (twoProcessors ? 2 : 1))
        // Fewer than the minimum: all on the calling thread.
        let alone = Mutex<Set<pthread_t>>([])
        SharedWork.forEach(3, minimum: 16) { _ in alone.withLock { _ = $0.insert(pthread_self()) } }
        #expect(alone.withLock { $0 } == [pthread_self()])
    }

    @Test func theRecursiveLockIsTakenAgainByItsHolderAndNotByAnotherThread() {
        let lock = RecursiveLock()
        let inner = lock.withLock { lock.withLock { 42 } }
        #expect(inner == 42)
        lock.lock()
        let other = DispatchSemaphore(value: 0)
        let tookIt = Mutex(true)
        #expect(
            DetachedThread.start(named: "lock probe") {
                tookIt.withLock { $0 = lock.try() }
                other.signal()
            })
        #expect(other.wait(timeout: .now() + 60) == .success)
        #expect(!tookIt.withLock { $0 }, "another thread cannot take a held lock")
        #expect(lock.try(), "its holder can")
        lock.unlock()
        lock.unlock()
    }
}
