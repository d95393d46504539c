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
