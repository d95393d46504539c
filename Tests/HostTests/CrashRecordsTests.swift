import Foundation
@_spi(Host) import ModuleKit
import TestSupport
import Testing

@testable import HostLoading

/// The records the next start makes of markers that processes left behind.
@Suite struct CrashRecordsTests {
    /// A data folder whose `.modhost` holds a marker of each of `pids` (none of them alive),
    /// each saying `Geo` vanished in `command`.
    func dataFolder(markersOf pids: [Int32]) throws -> String {
        let data = try TestEnvironment.temporaryFolder()
        let folder = data + "/.modhost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let line =
            CrashRecord.markerPrefix(module: "Geo", phase: .command, library: "/x/libGeo.so", identity: nil, timeout: 10) + "running\n"
        for pid in pids {
            try Data(line.utf8).write(to: URL(fileURLWithPath: folder + "/running-\(pid)"))
            chmod(folder + "/running-\(pid)", 0o600)
        }
        return data
    }

    /// Process numbers no process has (above the kernel's largest).
    static let dead: [Int32] = [Int32.max - 1, Int32.max - 2]

    @Test func twoProcessesThatVanishedTogetherCountOnceNotTwiceInARow() throws {
        let data = try dataFolder(markersOf: Self.dead)
        let records = CrashRecords(dataFolder: data, collect: true)
        #expect(records.records["Geo"]?.skips == false, "\(records.records)")
        #expect(records.vanished.count == 2)
    }

    @Test func aSecondStartAfterAnotherVanishingSkipsTheModule() throws {
        let data = try dataFolder(markersOf: [Self.dead[0]])
        #expect(CrashRecords(dataFolder: data, collect: true).records["Geo"]?.skips == false)
        let line =
            CrashRecord.markerPrefix(module: "Geo", phase: .command, library: "/x/libGeo.so", identity: nil, timeout: 10) + "running\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: data + "/.modhost/running-\(Self.dead[1])"))
        #expect(CrashRecords(dataFolder: data, collect: true).records["Geo"]?.outcome == .vanishedTwice)
    }

    /// A marker whose outcome is none of the guard's words (another version's, a damaged one)
    /// is named, and neither warns of nor skips its module: it was once read as a vanishing.
    @Test(arguments: ["crashed", "signal", "exit 1 2", "hanging", ""])
    func aMarkerWithAnUnknownOutcomeIsNamedNotTakenForAVanishing(outcome: String) throws {
        let data = try dataFolder(markersOf: [])
        let line =
            CrashRecord.markerPrefix(module: "Geo", phase: .start, library: "/x/libGeo.so", identity: nil, timeout: 10) + outcome + "\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: data + "/.modhost/running-\(Self.dead[0])"))
        let records = CrashRecords(dataFolder: data, collect: true)
        #expect(records.records["Geo"] == nil)
        #expect(records.vanished.isEmpty)
        #expect(records.unreadableMarkers == ["running-\(Self.dead[0])"])
        #expect(!FileManager.default.fileExists(atPath: data + "/.modhost/running-\(Self.dead[0])"))
    }

    /// A process killed between module calls leaves its marker saying so (or blank): nothing
    /// to record, and nothing to name.
    @Test(arguments: ["idle" + String(repeating: " ", count: 40) + "\n", "", "   \n"])
    func anIdleMarkerIsNoRecordAndNoWarning(marker: String) throws {
        let data = try dataFolder(markersOf: [])
        try Data(marker.utf8).write(to: URL(fileURLWithPath: data + "/.modhost/running-\(Self.dead[0])"))
        let records = CrashRecords(dataFolder: data, collect: true)
        #expect(records.records.isEmpty && records.vanished.isEmpty)
        #expect(records.unreadableMarkers.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: data + "/.modhost/running-\(Self.dead[0])"))
    }

    /// A slot (a marker kept from run to run) that an ended process left inside a call is
    /// turned into a record once, and kept, emptied, for the next process.
    @Test func aSlotLeftInACallIsRecordedOnceAndKeptEmpty() throws {
        let data = try dataFolder(markersOf: [])
        let slot = data + "/.modhost/marker-0"
        let line =
            CrashRecord.markerPrefix(module: "Geo", phase: .start, library: "/x/libGeo.so", identity: nil, timeout: 10) + "running\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: slot))
        chmod(slot, 0o600)
        let records = CrashRecords(dataFolder: data, collect: true)
        #expect(records.vanished.map(\.module) == ["Geo"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: slot)).isEmpty, "the slot stays, emptied")
        #expect(CrashRecords(dataFolder: data, collect: true).vanished.isEmpty, "read once")
        // A read-only look (check) reads it (the second in a row) but leaves it for the next start.
        try Data(line.utf8).write(to: URL(fileURLWithPath: slot))
        #expect(CrashRecords(dataFolder: data, collect: false).records["Geo"]?.outcome == .vanishedTwice)
        #expect(try String(contentsOfFile: slot, encoding: .utf8) == line)
    }

    /// A slot a live process holds (its `flock`) is its own: no start reads it as ended, and
    /// none takes it; nor does one take a slot an ended process left busy before it is read,
    /// or a name planted as a symlink.
    @Test func aHeldSlotIsNeitherCollectedNorTakenAndABusyOneNotTaken() throws {
        let data = try dataFolder(markersOf: [])
        let line =
            CrashRecord.markerPrefix(module: "Geo", phase: .start, library: "/x/libGeo.so", identity: nil, timeout: 10) + "running\n"
        for name in ["marker-0", "marker-1"] {
            try Data(line.utf8).write(to: URL(fileURLWithPath: data + "/.modhost/" + name))
            chmod(data + "/.modhost/" + name, 0o600)
        }
        // marker-0 held, as a running host holds its own; marker-1 left by an ended one.
        let held = open(data + "/.modhost/marker-0", O_RDWR | O_CLOEXEC)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        // marker-2 planted as a symlink: passed over, what it points at untouched.
        let target = try TestEnvironment.write("not a marker\n", named: "target")
        #expect(symlink(target, data + "/.modhost/marker-2") == 0)
        let folder = try #require(try CrashRecords.open(data, create: false))
        let slot = try #require(MarkerSlots.claim(in: folder))
        defer { close(slot.descriptor) }
        #expect(slot.name == "marker-3")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not a marker\n")
        // Only the ended process's marker is read; the held one is left as it is.
        let records = CrashRecords(dataFolder: data, collect: true)
        #expect(records.vanished.count == 1)
        #expect(try String(contentsOfFile: data + "/.modhost/marker-0", encoding: .utf8) == line)
        #expect(try String(contentsOfFile: data + "/.modhost/marker-1", encoding: .utf8) == "")
    }

    @Test func everyOutcomeReadsBackAsItselfAndTheWordsAreTheGuards() {
        let outcomes: [GuardOutcome] = [.signal("SIGSEGV"), .exit("3"), .hang, .vanished, .vanishedTwice]
        for outcome in outcomes { #expect(GuardOutcome(outcome.text) == outcome) }
        // The words markers left by earlier releases hold.
        #expect(outcomes.map(\.text) == ["signal SIGSEGV", "exit 3", "hang", "running", "vanished twice"])
        #expect(GuardOutcome("hung") == nil)
    }

    @Test(arguments: ["inf", "1e300", "-1", "nan"])
    func aRecordWithAnImpossibleTimeoutIsIgnored(timeout: String) {
        let line = "Geo\tstart\t1796120950\t/x/libGeo.so\t1\t2\t3\t4\t\(timeout)\thang"
        #expect(CrashRecord(line: Substring(line)) == nil)
    }
}
