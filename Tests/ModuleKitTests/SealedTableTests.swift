import Testing

@testable import ModuleKit

/// The sealed table a resolve reads: every key it was built with is found, with its entry and
/// its singleton storage, whatever the table's size and however keys collide; no other key is.
@Suite struct SealedTableTests {
    /// Distinct identifiers, like those of route types: of objects kept alive for the test.
    final class Key {}

    @Test(arguments: [0, 1, 3, 4, 5, 8, 100, 1_000])
    func everyKeyIsFoundAndNoOther(count: Int) {
        let keys = (0..<count).map { _ in Key() }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 1)
        defer { storage.deallocate() }
        var entries: [ObjectIdentifier: AnyEntry] = [:]
        for (index, key) in keys.enumerated() {
            // Every other entry is a lazy singleton or factory: no singleton storage.
            let singleton = index.isMultiple(of: 2) ? storage + index : nil
            entries[ObjectIdentifier(key)] = AnyEntry(typeName: "T\(index)", owner: "M", singleton: singleton)
        }
        let table = SealedTable(entries)
        defer { table.deallocate() }
        for (index, key) in keys.enumerated() {
            #expect(table.entry(ObjectIdentifier(key))?.typeName == "T\(index)")
            #expect(table.singleton(ObjectIdentifier(key)) == (index.isMultiple(of: 2) ? storage + index : nil))
        }
        let strangers = (0..<50).map { _ in Key() }
        for stranger in strangers {
            #expect(table.entry(ObjectIdentifier(stranger)) == nil)
            #expect(table.singleton(ObjectIdentifier(stranger)) == nil)
        }
        withExtendedLifetime((keys, strangers)) {}
    }

    @Test func keysThatShareASlotAreAllFound() {
        // Three identifiers (made by hand, never dereferenced) whose hash picks one slot of an
        // 8-slot table, as the table computes it: they probe past each other.
        func slot(_ value: UInt) -> UInt { (value &* 0x9E37_79B9_7F4A_7C15) >> 61 }
        let candidates = (0..<10_000).map { UInt(0x1000 + $0 * 16) }
        let raw = Array(candidates.filter { slot($0) == slot(candidates[0]) }.prefix(3))
        #expect(raw.count == 3)
        var entries: [ObjectIdentifier: AnyEntry] = [:]
        for (index, value) in raw.enumerated() {
            entries[unsafeBitCast(value, to: ObjectIdentifier.self)] = AnyEntry(typeName: "T\(index)", owner: "M", singleton: nil)
        }
        let table = SealedTable(entries)
        defer { table.deallocate() }
        for (index, value) in raw.enumerated() {
            #expect(table.entry(unsafeBitCast(value, to: ObjectIdentifier.self))?.typeName == "T\(index)")
        }
        let sameSlotStranger = candidates.filter { slot($0) == slot(candidates[0]) }.dropFirst(3).first ?? 0x2000
        #expect(table.entry(unsafeBitCast(sameSlotStranger, to: ObjectIdentifier.self)) == nil)
    }

    @Test func aResolverNotSealedHasAnEmptyTable() {
        let table = SealedTable()
        #expect(table.entry(ObjectIdentifier(Key.self)) == nil)
        #expect(table.singleton(ObjectIdentifier(Key.self)) == nil)
        table.deallocate()
    }
}
