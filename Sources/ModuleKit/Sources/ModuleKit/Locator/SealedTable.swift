/// A resolver's registrations once the locator is sealed: read-only from then on, so laid out
/// for the one question a resolve asks (the entry under a type's key) as an open-addressed
/// table of `ObjectIdentifier`s with a multiplicative hash, rather than a `Dictionary`, whose
/// SipHash is most of a lookup's cost (`modhost-bench resolve`).
///
/// Built once, under the locator's lock, and never changed; its storage lives as long as the
/// table. Exercised from many threads across the seal:
/// `ServiceLocatorTests.resolvesFromManyThreads…`.
struct SealedTable: @unchecked Sendable {
    /// `UInt(bitPattern:)` of each slot's key; 0 for an empty slot (no type's identifier is 0).
    private let keys: UnsafeMutableBufferPointer<UInt>
    private let entries: UnsafeMutableBufferPointer<AnyEntry?>
    /// Each slot's singleton storage (``AnyEntry/singleton``), read without touching the entry:
    /// loading the entry itself would retain and release it on every resolve.
    private let singletons: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>
    /// `keys.count` is 2^(64 - shift).
    private let shift: UInt

    /// The table of a resolver not sealed yet: no storage, and no entry.
    init() {
        keys = UnsafeMutableBufferPointer(start: nil, count: 0)
        entries = UnsafeMutableBufferPointer(start: nil, count: 0)
        singletons = UnsafeMutableBufferPointer(start: nil, count: 0)
        shift = 0
    }

    init(_ table: [ObjectIdentifier: AnyEntry]) {
        // At most half full, so a probe ends after a slot or two.
        var capacity = 8
        while capacity < table.count * 2 { capacity *= 2 }
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0)
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: nil)
        singletons = .allocate(capacity: capacity)
        singletons.initialize(repeating: nil)
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for (id, entry) in table {
            var slot = slot(of: UInt(bitPattern: id))
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = UInt(bitPattern: id)
            entries[slot] = entry
            singletons[slot] = entry.singleton
        }
    }

    /// Frees the storage; the table is not used again.
    func deallocate() {
        guard !keys.isEmpty else { return }
        keys.deallocate()
        _ = entries.deinitialize()
        entries.deallocate()
        singletons.deallocate()
    }

    /// The entry under `id`, or `nil`.
    func entry(_ id: ObjectIdentifier) -> AnyEntry? {
        index(of: id).flatMap { entries[$0] }
    }

    /// The storage of the singleton under `id`; `nil` when there is none (no entry, or a lazy
    /// singleton or factory: ask ``entry(_:)``).
    func singleton(_ id: ObjectIdentifier) -> UnsafeMutableRawPointer? {
        index(of: id).flatMap { singletons[$0] }
    }

    private func index(of id: ObjectIdentifier) -> Int? {
        guard !keys.isEmpty else { return nil }
        let key = UInt(bitPattern: id)
        var slot = slot(of: key)
        while true {
            let found = keys[slot]
            if found == key { return slot }
            if found == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
    }

    /// Fibonacci hashing: the top bits of the key times 2^64/φ.
    private func slot(of key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
