import Foundation
import ModuleKit

/// API answers kept on disk for 24 hours, as the Pixabay terms ask, keyed by the request
/// without its API key. Written atomically.
struct ResponseCache: Sendable {
    static let lifetime: TimeInterval = 24 * 3_600
    let folder: String
    let clock: @Sendable () -> Date

    init(folder: String, clock: @escaping @Sendable () -> Date = Date.init) {
        self.folder = folder
        self.clock = clock
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func get(_ key: String) -> [UInt8]? {
        let path = self.path(key)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let modified = attributes[.modificationDate] as? Date,
            clock().timeIntervalSince(modified) < Self.lifetime,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return [UInt8](data)
    }

    func put(_ key: String, _ bytes: [UInt8]) {
        try? AtomicFile.write(bytes, to: path(key))
    }

    private func path(_ key: String) -> String {
        folder + "/" + SHA256.hex(Array(key.utf8)) + ".json"
    }
}
