import FoundationEssentials
import ModuleKit

/// API answers kept on disk for 24 hours, as the Pixabay terms ask, keyed by the request
/// without its API key. Written atomically, in a folder reached only through its descriptor.
struct ResponseCache: Sendable {
    static let lifetime: TimeInterval = 24 * 3_600
    let folder: StorageFolder
    let clock: @Sendable () -> Date

    init(folder: StorageFolder, clock: @escaping @Sendable () -> Date = Date.init) {
        self.folder = folder
        self.clock = clock
    }

    func get(_ key: String) -> [UInt8]? {
        guard let name = self.name(key), let info = try? folder.info(name),
            clock().timeIntervalSince1970 - info.modifiedSince1970 < Self.lifetime
        else { return nil }
        return try? folder.read(name)
    }

    func put(_ key: String, _ bytes: [UInt8]) {
        guard let name = name(key) else { return }
        try? folder.write(name, bytes)
    }

    /// The file of `key`: its digest; `nil` when there is none (libcrypto cannot be opened),
    /// and then nothing is cached.
    private func name(_ key: String) -> String? {
        (try? SHA256.hex(of: Array(key.utf8))).map { $0 + ".json" }
    }
}
