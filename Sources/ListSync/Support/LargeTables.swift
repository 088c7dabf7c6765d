#if canImport(Glibc)
    import Glibc
#endif

/// Storage for the large tables a bulk load fills at once (the row table, its row-ID index, the order
/// index's leaves, the values, the load's own lists): on Linux, advised to be backed by transparent
/// huge pages (where the system grants them on request, its default), so that filling hundreds of
/// megabytes takes a page fault per 2 MiB instead of one per 4 KiB (docs/runs.md: opening a store of
/// a million rows spent a quarter of its time in page faults before).
///
/// Only new storage of at least ``threshold`` bytes is advised, before anything is written to it. On
/// Darwin, or where the kernel refuses, the advice is a no-op: the storage is the same ordinary array.
@usableFromInline
package enum LargeTables {
    /// The size from which storage is advised: below it, a table fills in a few hundred faults anyway.
    static let threshold = 4 << 20

    /// An array of `count` copies of `element` with room for `capacity` elements (at least `count`).
    static func array<Element>(repeating element: Element, count: Int, capacity: Int) -> ContiguousArray<Element> {
        var storage = ContiguousArray<Element>()
        reserve(&storage, capacity: max(capacity, count))
        storage.append(contentsOf: repeatElement(element, count: count))
        return storage
    }

    /// Reserves room for `capacity` elements in `storage`.
    @usableFromInline
    static func reserve<Storage: ReservableStorage>(_ storage: inout Storage, capacity: Int) {
        guard capacity > storage.capacity else { return }
        storage.reserveCapacity(capacity)
        let bytes = storage.capacity * MemoryLayout<Storage.Element>.stride
        _ = storage.withContiguousMutableStorageIfAvailable { adviseHugePages($0.baseAddress, bytes: bytes) }
    }

    /// The size of a huge page on Linux's common configurations (x86-64, and arm64 with 4 KiB pages).
    static let hugePage: UInt = 2 << 20

    /// Advises the `bytes` at `base`, not written yet, to be backed by huge pages when they are at least
    /// ``threshold`` bytes: also for a store's file read into memory. Only the whole huge pages inside
    /// them are advised, so no other allocation's memory is.
    package static func adviseHugePages<Element>(_ base: UnsafeMutablePointer<Element>?, bytes: Int) {
        #if canImport(Glibc)
            guard bytes >= threshold, let base else { return }
            let address = UInt(bitPattern: UnsafeMutableRawPointer(base))
            let start = (address + hugePage - 1) & ~(hugePage - 1)
            let end = (address + UInt(bytes)) & ~(hugePage - 1)
            guard end > start else { return }
            // Advice only: refused (an old kernel, huge pages off), the storage works the same.
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}

/// Contiguous storage whose room ``LargeTables`` reserves: `Array` and `ContiguousArray`.
@usableFromInline
protocol ReservableStorage: RangeReplaceableCollection, MutableCollection {
    /// The number of elements the storage holds without growing.
    var capacity: Int { get }
}

extension Array: ReservableStorage {}
extension ContiguousArray: ReservableStorage {}
