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

    /// Reserves room for `capacity` elements in `storage`, for a bulk load about to fill it.
    @usableFromInline
    static func reserve<Storage: ReservableStorage>(_ storage: inout Storage, capacity: Int) {
        guard capacity > storage.capacity else { return }
        storage.reserveCapacity(capacity)
        let bytes = storage.capacity * MemoryLayout<Storage.Element>.stride
        _ = storage.withContiguousMutableStorageIfAvailable { adviseHugePages($0.baseAddress, bytes: bytes) }
    }

    /// Makes room in `storage` for `additional` more elements, doubling it as appending would: the growth
    /// of a table that edits fill row by row. Storage of at least ``releaseThreshold(for:)`` bytes that it
    /// outgrows gives its pages back to the system (``releasePages(of:)``). Not advised as huge pages:
    /// the room reserved ahead would be resident at once, 2 MiB at a time.
    @inlinable @inline(__always)
    static func makeRoom<Storage: ReservableStorage>(_ storage: inout Storage, for additional: Int) {
        let needed = storage.count + additional
        if needed > storage.capacity { grow(&storage, capacity: max(needed, 2 * storage.capacity)) }
    }

    /// Grows `storage` to room for `capacity` elements (see ``makeRoom(_:for:)``).
    @usableFromInline @inline(never)
    static func grow<Storage: ReservableStorage>(_ storage: inout Storage, capacity: Int) {
        guard releasesPages(storage) else { return storage.reserveCapacity(capacity) }
        var old = Storage()
        swap(&old, &storage)
        storage.reserveCapacity(capacity)
        storage.append(contentsOf: old)
        releasePages(of: &old)
    }

    /// The size from which storage of `Element`s that a table leaves behind gives its pages back to the
    /// system: on Linux, 128 KiB (glibc's first threshold for serving a block from memory mapped for it
    /// alone) for elements without references, whose copy into the new storage is a `memcpy`, and 4 MiB
    /// for others, whose copy retains every element and whose release then releases it.
    ///
    /// glibc's `malloc` serves blocks from 128 KiB from memory mapped for them alone, and unmaps them
    /// when they are freed, until such a block is freed: then it raises that threshold (up to 32 MiB), so
    /// that later tables grow inside its heap, and the buffers they outgrow stay there, free but resident.
    /// Growing a table of 100,000 rows left 5 MiB that way, and tables below 4 MiB 10 to 14 bytes a row
    /// on the real traces (docs/runs.md). Releasing the storage of elements with references from
    /// 128 KiB too saves more (40 bytes a row on clownschool_flat) but costs more: copying the app's
    /// values through generic code, 4.5 % more instructions applying automerge-paper; the rows' buffers,
    /// faulted back in when reused, about 5 % of its time. Elsewhere (Darwin's `malloc` returns large
    /// blocks itself) the storage is left to the allocator as it is.
    static func releaseThreshold<Element>(for _: Element.Type) -> Int {
        #if canImport(Glibc)
            return _isPOD(Element.self) ? 128 << 10 : 4 << 20
        #else
            return .max
        #endif
    }

    /// Whether `storage`'s buffer is at least ``releaseThreshold(for:)`` bytes.
    private static func releasesPages<Storage: ReservableStorage>(_ storage: Storage) -> Bool {
        storage.capacity * MemoryLayout<Storage.Element>.stride >= releaseThreshold(for: Storage.Element.self)
    }

    /// When `storage`'s buffer is at least ``releaseThreshold(for:)`` bytes, empties it (destroying its
    /// elements) and gives the whole pages inside the buffer back to the system (`MADV_DONTNEED`), so
    /// that the buffer, once freed, no longer counts as resident memory: for storage about to be dropped.
    ///
    /// Only this copy's buffer is released: storage shared with another copy gets a buffer of its own
    /// first (`removeAll(keepingCapacity:)`), and the other copy keeps the shared one intact. The
    /// allocator's own data (the block's header before the buffer) lies outside the pages released; what
    /// it writes into the block once it is freed lands in fresh zeroed pages.
    static func releasePages<Storage: ReservableStorage>(of storage: inout Storage) {
        guard releasesPages(storage) else { return }
        storage.removeAll(keepingCapacity: true)
        #if canImport(Glibc)
            let bytes = storage.capacity * MemoryLayout<Storage.Element>.stride
            // Advice the kernel always takes for private memory; refused, the pages just stay.
            _ = storage.withContiguousMutableStorageIfAvailable { buffer in
                advise(buffer.baseAddress, bytes: bytes, pagesOf: UInt(sysconf(Int32(_SC_PAGESIZE))), MADV_DONTNEED)
            }
        #endif
    }

    /// The size of a huge page on Linux's common configurations (x86-64, and arm64 with 4 KiB pages).
    static let hugePage: UInt = 2 << 20

    /// Advises the `bytes` at `base`, not written yet, to be backed by huge pages when they are at least
    /// ``threshold`` bytes: also for a store's file read into memory. Only the whole huge pages inside
    /// them are advised, so no other allocation's memory is.
    package static func adviseHugePages<Element>(_ base: UnsafeMutablePointer<Element>?, bytes: Int) {
        #if canImport(Glibc)
            guard bytes >= threshold else { return }
            // Advice only: refused (an old kernel, huge pages off), the storage works the same.
            advise(base, bytes: bytes, pagesOf: hugePage, MADV_HUGEPAGE)
        #endif
    }

    #if canImport(Glibc)
        /// Gives `advice` for the whole pages of `page` bytes (a power of two) inside the `bytes` at `base`,
        /// so that no other allocation's memory is touched.
        private static func advise<Element>(
            _ base: UnsafeMutablePointer<Element>?, bytes: Int, pagesOf page: UInt, _ advice: Int32
        ) {
            guard let base else { return }
            let address = UInt(bitPattern: UnsafeMutableRawPointer(base))
            let start = (address + page - 1) & ~(page - 1)
            let end = (address + UInt(bytes)) & ~(page - 1)
            guard end > start else { return }
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), advice)
        }
    #endif
}

/// Contiguous storage whose room ``LargeTables`` reserves: `Array` and `ContiguousArray`.
@usableFromInline
protocol ReservableStorage: RangeReplaceableCollection, MutableCollection {
    /// The number of elements the storage holds without growing.
    var capacity: Int { get }
}

extension Array: ReservableStorage {}
extension ContiguousArray: ReservableStorage {}
