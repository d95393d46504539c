import FoundationEssentials
import ModuleKit
import PhotosDomain

/// Images by URL (Kingfisher's job): in memory and on disk, each bounded in bytes with
/// least-recently-used eviction; files written atomically; concurrent requests for one URL
/// fetched once.
public actor ImageCache {
    public typealias Fetch = @Sendable (URL, (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8]

    private let folder: StorageFolder
    private let memoryLimit: Int
    private let diskLimit: Int
    private let fetch: Fetch

    private var memory: [String: [UInt8]] = [:]
    /// Memory keys, least recently used first.
    private var memoryOrder: [String] = []
    private var memoryBytes = 0
    private var disk: [String: (bytes: Int, used: UInt64)] = [:]
    private var diskBytes = 0
    private var useCounter: UInt64 = 0
    private var inFlight: [String: Task<[UInt8], any Error>] = [:]

    /// How many times `fetch` ran: what deduplication saves.
    public private(set) var fetchCount = 0

    public init(folder: StorageFolder, memoryLimit: Int = 16 << 20, diskLimit: Int = 256 << 20, fetch: @escaping Fetch) {
        self.folder = folder
        self.memoryLimit = memoryLimit
        self.diskLimit = diskLimit
        self.fetch = fetch
        var index: [String: (bytes: Int, used: UInt64)] = [:]
        var total = 0
        let files = folder.names()
        for (order, name) in files.sorted().enumerated() {
            if name.contains(".partial-") {
                // Left by a write that never finished: never a cache entry.
                try? folder.remove(name)
                continue
            }
            guard let size = (try? folder.info(name))??.size else { continue }
            index[name] = (size, UInt64(order))
            total += size
        }
        disk = index
        diskBytes = total
        useCounter = UInt64(files.count)
    }

    /// The image at `url`: from memory, else disk, else fetched (once, however many ask).
    public func data(for url: URL, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(PhotoError) -> [UInt8] {
        // Memory is keyed by the URL itself (no hashing on the hot path); files by its digest.
        let address = url.absoluteString
        if let bytes = memory[address] {
            touchMemory(address)
            return bytes
        }
        guard let key = try? SHA256.hex(of: Array(address.utf8)) else {
            // No digest to name a file by (libcrypto cannot be opened): memory only.
            let bytes = try await fetch(url, progress)
            remember(address, bytes)
            return bytes
        }
        if disk[key] != nil, let bytes = try? folder.read(key) {
            touchDisk(key)
            remember(address, bytes)
            return bytes
        }
        let task: Task<[UInt8], any Error>
        if let running = inFlight[key] {
            task = running
        } else {
            fetchCount += 1
            let fetch = self.fetch
            task = Task { try await fetch(url, progress) }
            inFlight[key] = task
        }
        do {
            let bytes = try await task.value
            if inFlight.removeValue(forKey: key) != nil {
                store(key, address, bytes)
            }
            return bytes
        } catch {
            inFlight[key] = nil
            throw (error as? PhotoError) ?? PhotoError.storage("\(error)")
        }
    }

    /// Bytes held in memory and on disk.
    public var usage: (memory: Int, disk: Int) { (memoryBytes, diskBytes) }

    /// Whether `url` is in memory.
    public func isInMemory(_ url: URL) -> Bool { memory[url.absoluteString] != nil }

    private func store(_ key: String, _ address: String, _ bytes: [UInt8]) {
        remember(address, bytes)
        guard bytes.count <= diskLimit else { return }
        do {
            try folder.write(key, bytes)
        } catch {
            return  // A cache that cannot write still serves from memory.
        }
        if let old = disk[key] { diskBytes -= old.bytes }
        useCounter += 1
        disk[key] = (bytes.count, useCounter)
        diskBytes += bytes.count
        while diskBytes > diskLimit, let oldest = disk.min(by: { $0.value.used < $1.value.used })?.key {
            try? folder.remove(oldest)
            diskBytes -= disk[oldest]?.bytes ?? 0
            disk[oldest] = nil
        }
    }

    private func remember(_ key: String, _ bytes: [UInt8]) {
        guard bytes.count <= memoryLimit else { return }
        if let old = memory[key] { memoryBytes -= old.count }
        memory[key] = bytes
        memoryBytes += bytes.count
        touchMemory(key)
        while memoryBytes > memoryLimit, let oldest = memoryOrder.first {
            memoryOrder.removeFirst()
            memoryBytes -= memory[oldest]?.count ?? 0
            memory[oldest] = nil
        }
    }

    private func touchMemory(_ key: String) {
        if let index = memoryOrder.lastIndex(of: key) { memoryOrder.remove(at: index) }
        memoryOrder.append(key)
    }

    private func touchDisk(_ key: String) {
        useCounter += 1
        disk[key]?.used = useCounter
    }
}
