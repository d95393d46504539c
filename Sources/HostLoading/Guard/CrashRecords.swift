import CHostGuard
import FoundationEssentials
import Glibc
@_spi(Host) import ModuleKit

/// The crashes the host remembers, in `<data>/.modhost/crashes`: one ``CrashRecord`` per module.
///
/// At each start the markers left by processes that ended inside a module call are turned into
/// records. A module with a record that skips it (see ``CrashRecord/skips``) is skipped until
/// its library changes (size, modification time or inode: the author shipped a fix) or
/// `--retry` names it.
///
/// A process that vanished inside a call (SIGKILL, `_exit`) leaves no word of why: a `kill -9`
/// from outside looks the same. Its record only warns; the same module vanishing in the same
/// phase again, before it has once come through that phase, skips it.
package struct CrashRecords {
    /// The folder's name in the data folder; it is checked as a module's folder is (the
    /// running user's, 0700, no symlinks): a record planted there would disable a module.
    static let folderName = ".modhost"

    static func folder(in dataFolder: String) -> String { dataFolder + "/" + folderName }

    /// The folder, opened and checked (created when `create`); `nil` when it does not exist.
    ///
    /// - Throws: ``StorageError`` when it, or the data folder, cannot be trusted or made.
    static func open(_ dataFolder: String, create: Bool) throws(StorageError) -> StorageFolder? {
        var status = stat()
        if !create && lstat(folder(in: dataFolder), &status) != 0 { return nil }
        return try ModuleStorage(dataFolder: dataFolder, module: folderName).files()
    }

    private let storage: StorageFolder?
    private var unsaved: UnsavedMarkers?
    package private(set) var records: [String: CrashRecord] = [:]
    /// Records of processes that vanished, collected by this start.
    package private(set) var vanished: [CrashRecord] = []
    /// Why the records cannot be read or kept, if so (the folder or a file fails its checks).
    package private(set) var problem: String?
    /// Why the records file could not be written (a full disk), if so: what this start read
    /// is obeyed, and what an ended process left stays in its marker for the next.
    package private(set) var saveProblem: String?
    /// Markers of ended processes that hold no record this host can read (an outcome that is
    /// none of the guard's words, a field out of range): removed with the others, and named.
    package private(set) var unreadableMarkers: [String] = []

    /// Reads the records and collects the markers of dead processes; writes nothing when
    /// `collect` is false (a read-only look, as `check` takes). With `readingMarkers` false,
    /// only the records file is read (to forget some of them); with `readingRecords` false,
    /// nothing is (a module's own process, whose host reads them).
    package init(dataFolder: String, collect: Bool, readingMarkers: Bool = true, readingRecords: Bool = true) {
        guard readingRecords else {
            storage = nil
            return
        }
        do throws(StorageError) {
            storage = try Self.open(dataFolder, create: false)
        } catch {
            storage = nil
            problem = error.message
            return
        }
        guard let storage else { return }
        do throws(StorageError) {
            let text = String(decoding: try storage.read("crashes", limit: 1 << 20) ?? [], as: UTF8.self)
            for line in text.split(separator: "\n") {
                if let record = CrashRecord(line: line) { records[record.module] = record }
            }
        } catch {
            problem = error.message
        }
        var changed = false
        // A vanishing counts twice only after one recorded by an earlier start: two processes
        // killed together leave two markers, and that is once, not twice in a row.
        let earlier = records
        // Markers that held a record, emptied or removed only once the records are saved: on a
        // full disk the record stays in its marker, read again by the next start.
        let taken = UnsavedMarkers()
        // Plain system calls: this runs at every start, usually to find nothing.
        for name in readingMarkers ? storage.names() : [] {
            if MarkerSlots.isSlot(name) {
                // A slot a live process holds is skipped; one left idle stays for the next.
                guard let slot = MarkerSlots.ended(name, in: storage, readOnly: !collect) else { continue }
                if MarkerSlots.isIdle(slot.text) {
                    slot.close()
                    continue
                }
                changed = take(slot.text, of: name, previous: earlier) || changed
                if collect { taken.slots.append(slot) } else { slot.close() }
                continue
            }
            // A file of a process's own (a file system without `flock`, or an older host's).
            guard name.hasPrefix("running-"), let pid = Int32(name.dropFirst("running-".count)), pid != getpid(), !Self.isAlive(pid)
            else { continue }
            let text = (try? storage.read(name, limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self).trimmedOfWhitespace() }
            // Ended between module calls (or before the first): nobody's doing.
            if let text, !MarkerSlots.isIdle(text) {
                changed = take(text, of: name, previous: earlier) || changed
                if collect { taken.files.append(name) }
            } else if collect {
                try? storage.remove(name)
            }
        }
        guard collect else { return }
        unsaved = taken
        if !changed { taken.empty(in: storage) } else { save() }
    }

    /// The markers this start took records from, while those records are not saved: each slot
    /// held (its lock), so that no other start counts it again, and emptied (a file of its own
    /// removed) by the first save that succeeds, whichever it is. A later save (a `--retry`)
    /// that succeeded on a disk with room again while the marker still held the record had the
    /// next start read it again: the retry undone, a vanishing counted twice.
    private final class UnsavedMarkers {
        var slots: [MarkerSlots.Ended] = []
        var files: [String] = []

        func empty(in storage: StorageFolder) {
            for slot in slots { slot.empty() }
            for name in files { try? storage.remove(name) }
            release()
        }

        func release() {
            for slot in slots { slot.close() }
            slots = []
            files = []
        }

        deinit { release() }
    }

    /// Turns the text of a marker an ended process left inside a module call into a record;
    /// whether it did (a marker no record can be read from is named instead).
    private mutating func take(_ text: String, of name: String, previous earlier: [String: CrashRecord]) -> Bool {
        guard let found = CrashRecord(line: Substring(text)) else {
            // Another version's marker, or a damaged one: said, never guessed at.
            unreadableMarkers.append(name)
            return false
        }
        let record = found.afterVanishing(previous: earlier[found.module])
        if !record.skips { vanished.append(record) }
        records[record.module] = record
        return true
    }

    /// The record that still skips `module` loaded from a file of `identity`.
    package func record(for module: String, identity: FileIdentity) -> CrashRecord? {
        guard let record = records[module], record.skips else { return nil }
        return record.identity == identity ? record : nil
    }

    /// The records that only warn (a process vanished once in that module and phase).
    package var warnings: [CrashRecord] { records.values.filter { !$0.skips } }

    /// Writes `record` down in `dataFolder`'s records (the folder made when missing), in
    /// place of the module's earlier one; why it could not, if so.
    package static func write(_ record: CrashRecord, in dataFolder: String) -> String? {
        do throws(StorageError) {
            _ = try open(dataFolder, create: true)
        } catch {
            return error.message
        }
        var records = CrashRecords(dataFolder: dataFolder, collect: false, readingMarkers: false)
        if let problem = records.problem { return problem }
        records.records[record.module] = record
        return records.save() ? nil : records.saveProblem
    }

    /// Forgets `module`'s record (a retry, or its library changed).
    package mutating func forget(_ module: String) {
        guard records.removeValue(forKey: module) != nil else { return }
        save()
    }

    package mutating func forgetAll() {
        guard !records.isEmpty else { return }
        records = [:]
        save()
    }

    /// Replaces the records file atomically (a temporary file renamed over it, synced);
    /// whether it did. Why not is kept in ``saveProblem``.
    @discardableResult
    private mutating func save() -> Bool {
        let text = records.values.sorted { $0.module < $1.module }.map { $0.line + "\n" }.joined()
        guard let storage else {
            saveProblem = "their folder (.modhost in the data folder) is missing"
            return false
        }
        do throws(StorageError) {
            try storage.write("crashes", Array(text.utf8))
            unsaved?.empty(in: storage)
            unsaved = nil
            return true
        } catch {
            saveProblem = error.message
            return false
        }
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
