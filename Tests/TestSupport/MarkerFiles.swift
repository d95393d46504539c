import Foundation

/// The guard's marker files in a data folder, as a test reads them: the slots
/// (`.modhost/marker-N`, kept from run to run) and a process's own (`.modhost/running-<pid>`).
public enum MarkerFiles {
    public struct Marker: Sendable {
        public let path: String
        /// Its text, trimmed of the spaces that pad it.
        public let text: String
    }

    /// Every marker file in `data`'s `.modhost`.
    public static func all(in data: String) -> [Marker] {
        let folder = data + "/.modhost"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.filter { $0.hasPrefix("marker-") || $0.hasPrefix("running-") }.map { name in
            let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
            return Marker(path: folder + "/" + name, text: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The markers that say a module call was under way: what a process left that ended
    /// inside one (or one still inside one).
    public static func busy(in data: String) -> [Marker] {
        all(in: data).filter { !$0.text.isEmpty && $0.text != "idle" }
    }

    /// The process that holds the slot at `path` (its `flock`, as `/proc/locks` lists it), or
    /// the process a file of its own names; `nil` when none does.
    public static func holder(of path: String) -> Int32? {
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix("running-") { return Int32(name.dropFirst("running-".count)) }
        var status = stat()
        guard stat(path, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF": the holder, then the device's
        // major and minor numbers (hexadecimal) and the inode.
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                UInt64(file[2]) == UInt64(status.st_ino)
            else { continue }
            return pid
        }
        return nil
    }
}
