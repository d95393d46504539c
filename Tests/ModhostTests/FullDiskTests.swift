import Foundation
import TestSupport
import Testing

/// Where the full-disk tests can run.
enum SmallDisk {
    /// Whether this process may mount a tmpfs in a mount namespace of its own. Only root: in a
    /// user namespace of its own, root's files (the toolchain, /tmp) belong to nobody, and the
    /// host rightly trusts none of them.
    static let canMount: Bool = {
        guard geteuid() == 0,
            let result = try? ChildProcess.run("/usr/bin/unshare", ["--mount", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"])
        else { return false }
        return result.status == 0
    }()
}

/// A data folder on a disk that is really full: a 64 KiB tmpfs, mounted in a mount namespace
/// of the test's own (`unshare`), filled with `dd`. A full disk is nobody's fault, a module's
/// crash there is told as it is, and no crash record is lost to it.
@Suite(.enabled(if: SmallDisk.canMount, "needs root, and a mount namespace of its own (unshare --mount)"))
struct FullDiskTests {
    /// Runs `steps` (sh) with a fresh tmpfs of `size` at `$DISK`, a data folder on it at
    /// `$MODHOST_DATA_DIR`, and `$MODHOST` and `$CONFIG` set; its output.
    func onASmallDisk(config: String, size: String = "64k", _ steps: String) throws -> String {
        let disk = try TestEnvironment.temporaryFolder()
        let script = """
            mount -t tmpfs -o size=\(size) tmpfs "$DISK" || exit 3
            mkdir -m 700 "$DISK/data"
            \(steps)
            """
        let result = try ChildProcess.run(
            "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", script],
            environment: [
                "DISK": disk, "MODHOST_DATA_DIR": disk + "/data", "MODHOST": TestEnvironment.modhost, "CONFIG": config,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout + result.stderr
    }

    static let fill = #"dd if=/dev/zero of="$DISK/filler" bs=4k 2>/dev/null; echo "free: $(df -k "$DISK" | tail -1 | awk '{print $4}')""#

    /// A crash with the disk full after a first run: the marker kept from that run holds it,
    /// so the line says it is skipped and the next start skips it, though the records file
    /// cannot be written then (said); once there is room it is written down, nothing lost.
    @Test func aCrashOnAFullDiskIsStillSkippedAndWrittenDownOnceThereIsRoom() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "raise"}"#)]))
        let calm = try TestEnvironment.write(TestEnvironment.modulesJSON([("Geo", "")]))
        let output = try onASmallDisk(
            config: config,
            """
            "$MODHOST" --config \(calm) modules > /dev/null || echo "first run failed"
            \(Self.fill)
            echo "== crash"; "$MODHOST" --config "$CONFIG" modules 2>&1 >/dev/null; echo "status $?"
            echo "== full"; "$MODHOST" --config "$CONFIG" modules 2>&1; echo "status $?"
            rm "$DISK/filler"
            echo "== room"; "$MODHOST" --config "$CONFIG" modules 2>&1; echo "status $?"
            echo "== records"; cat "$DISK/data/.modhost/crashes"
            """)
        let parts = output.components(separatedBy: "== ")
        try #require(parts.count == 5, "\(output)")
        #expect(parts[0].contains("free: 0"), "\(output)")
        #expect(!parts[0].contains("first run failed"), "\(output)")
        #expect(
            parts[1].contains(
                "modhost: error: module 'FixtureMisbehaves' crashed the host in start (SIGSEGV); it is skipped from the next start"),
            "\(parts[1])")
        #expect(parts[1].contains("status 139"), "\(parts[1])")
        // The records file cannot be written: said, and the crash is obeyed from its marker.
        #expect(parts[2].contains("modhost: warn: crash records cannot be saved: "), "\(parts[2])")
        #expect(parts[2].contains("No space left on device"), "\(parts[2])")
        #expect(parts[2].contains("reason: crashed the host on "), "\(parts[2])")
        #expect(parts[2].contains("status 0"), "\(parts[2])")
        // With room again, the same record is read once more and written down.
        #expect(parts[3].contains("reason: crashed the host on "), "\(parts[3])")
        #expect(!parts[3].contains("cannot be saved"), "\(parts[3])")
        #expect(parts[4].hasPrefix("records\nFixtureMisbehaves\tstart\t"), "\(parts[4])")
    }

    /// A `--retry` on a disk too full for the records a start collected, with room for the
    /// smaller records the retry leaves: that save empties the marker the crash was read from,
    /// so the next start does not read the crash again and undo the retry. The crash's record
    /// is one line too many for one page: the records file is padded to just under a page
    /// (lines as long as the crash's), and the disk left one page free.
    @Test func aRetryWhoseRecordsCouldBeSavedIsNotUndoneByTheMarker() throws {
        let crashing = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "start", "how": "raise"}"#)]))
        let calm = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureMisbehaves", "")]))
        let records = "$DISK/data/.modhost/crashes"
        let output = try onASmallDisk(
            config: crashing,
            """
            "$MODHOST" --config \(calm) modules > /dev/null || echo "first run failed"
            "$MODHOST" --config "$CONFIG" modules > /dev/null 2>&1
            "$MODHOST" --config "$CONFIG" modules > /dev/null 2>&1
            line=$(grep '^FixtureMisbehaves' "\(records)")
            size=$((${#line} + 1)); count=$((4096 / size)); : > "\(records)"
            for index in $(seq 1 $count); do
                printf '%s\n' "$line" | sed "s/^FixtureMisbehaves/PaddingModule$(printf %04d $index)/" >> "\(records)"
            done
            echo "padded: $(wc -c < "\(records)") bytes, one line more: $(($(wc -c < "\(records)") + size))"
            "$MODHOST" --config "$CONFIG" modules > /dev/null 2>&1
            dd if=/dev/zero of="$DISK/page" bs=4k count=1 2>/dev/null
            \(Self.fill)
            rm "$DISK/page"
            echo "== retry"; "$MODHOST" --config \(calm) --retry FixtureMisbehaves modules 2>&1; echo "status $?"
            echo "== next"; "$MODHOST" --config \(calm) modules 2>&1; echo "status $?"
            echo "== records"; grep -c '^PaddingModule' "\(records)"; grep -c '^FixtureMisbehaves' "\(records)" || true
            """)
        let parts = output.components(separatedBy: "== ")
        try #require(parts.count == 4, "\(output)")
        #expect(!parts[0].contains("first run failed") && parts[0].contains("free: 0"), "\(output)")
        // The collected records (the crash's line with the padding) could not be saved.
        #expect(parts[1].contains("modhost: warn: crash records cannot be saved: "), "\(parts[1])")
        #expect(parts[1].contains("FixtureMisbehaves active") && parts[1].contains("status 0"), "\(parts[1])")
        // The retry's save emptied the marker: nothing skips the module again.
        #expect(parts[2].contains("FixtureMisbehaves active"), "\(parts[2])")
        #expect(!parts[2].contains("crashed the host"), "\(parts[2])")
        #expect(parts[3].hasPrefix("records\n") && parts[3].hasSuffix("\n0\n"), "no record of the crash: \(parts[3])")
    }

    /// A crash's backtrace file is named only when it holds the whole backtrace: with room it
    /// is written and cut to its length; with one page left, which its first line fits in but
    /// not the rest, it goes to standard error (the file was named, and held a line).
    @Test func aBacktraceIsNamedOnlyWhenItFitsWhole() throws {
        let crashing = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("FixtureMisbehaves", #""config": {"in": "start", "how": "raise"}"#)]))
        let calm = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureMisbehaves", "")]))
        let output = try onASmallDisk(
            config: crashing, size: "512k",
            """
            "$MODHOST" --config \(calm) modules > /dev/null || echo "first run failed"
            echo "== room"; "$MODHOST" --config "$CONFIG" modules 2>&1 >/dev/null
            for file in "$DISK"/data/.modhost/backtrace-*; do
                echo "bytes: $(wc -c < "$file"), zero bytes: $(tr -cd '\\000' < "$file" | wc -c)"; rm "$file"
            done
            "$MODHOST" --config \(calm) --retry FixtureMisbehaves modules > /dev/null 2>&1
            dd if=/dev/zero of="$DISK/page" bs=4k count=1 2>/dev/null
            \(Self.fill)
            rm "$DISK/page"
            echo "== full"; "$MODHOST" --config "$CONFIG" modules 2>&1 >/dev/null
            ls "$DISK"/data/.modhost
            """)
        let parts = output.components(separatedBy: "== ")
        try #require(parts.count == 3, "\(output)")
        #expect(!parts[0].contains("first run failed"), "\(output)")
        let crashLine = "modhost: error: module 'FixtureMisbehaves' crashed the host in start (SIGSEGV); it is skipped from the next start"
        #expect(parts[1].contains(crashLine + "; 'modhost --retry FixtureMisbehaves' tries it again; its backtrace is in '"), "\(parts[1])")
        let counts = parts[1].split(separator: "\n").first { $0.hasPrefix("bytes: ") } ?? ""
        let bytes = Int(counts.dropFirst("bytes: ".count).prefix { $0.isNumber }) ?? 0
        #expect(bytes > 100 && bytes < 128 * 1024 && counts.hasSuffix("zero bytes: 0"), "cut to what was written: \(parts[1])")
        #expect(parts[1].contains("free: 0"), "\(parts[1])")
        #expect(parts[2].contains(crashLine + "; 'modhost --retry FixtureMisbehaves' tries it again\n"), "\(parts[2])")
        #expect(!parts[2].contains("its backtrace is in"), "\(parts[2])")
        #expect(!parts[2].contains("backtrace-"), "no file left: \(parts[2])")
    }

    /// A first run with the disk already full: no marker can be written, and a crash's line
    /// says so rather than promise a skip that will not happen.
    @Test func aCrashWhoseMarkerCannotBeWrittenIsNotPromisedASkip() throws {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "start", "how": "raise"}"#)]))
        let output = try onASmallDisk(
            config: config,
            """
            \(Self.fill)
            echo "== crash"; "$MODHOST" --config "$CONFIG" modules 2>&1 >/dev/null; echo "status $?"
            """)
        #expect(output.contains("free: 0"), "\(output)")
        #expect(
            output.contains(
                "modhost: error: module 'FixtureMisbehaves' crashed the host in start (SIGSEGV); the crash could not be written down in the data folder, so it is not skipped from the next start"
            ), "\(output)")
        #expect(output.contains("status 139"), "\(output)")
    }
}
