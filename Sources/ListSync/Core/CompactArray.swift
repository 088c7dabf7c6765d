/// An array that keeps a single element inline: the lists of a ``ListChange``, so that a change of one
/// row allocates nothing.
///
/// It reads and writes like `Array`: a random-access, mutable, range-replaceable collection, made from
/// an array literal, compared element by element and printed as `[1, 2]`; `Array(list)` makes an array.
public struct CompactArray<Element> {
    /// The only element, when there is exactly one and `elements` is nil.
    @usableFromInline var single: Element?
    /// The elements, when `single` is nil. Nil for an array made empty or with one element, so that it
    /// holds no reference; an array emptied by removals may keep its buffer here.
    @usableFromInline var elements: [Element]?

    /// An empty array.
    @inlinable
    public init() {
        single = nil
        elements = nil
    }

    /// An array of the one element `element`.
    @inlinable
    public init(single element: Element) {
        single = element
        elements = nil
    }

    /// An array of `elements`, in order; one element is kept inline.
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        single = nil
        if elements.underestimatedCount == 1 {
            // At least one element: a range or collection of one is read without making an array.
            var iterator = elements.makeIterator()
            let first = iterator.next()
            guard let second = iterator.next() else {
                single = first
                return
            }
            var array = [first!, second]
            while let next = iterator.next() { array.append(next) }
            self.elements = array
        } else {
            self.elements = Array(elements)
        }
    }

    /// Runs `body` on the elements as an array (uniquely referenced when this array's were), which then
    /// become this array's.
    @inlinable
    mutating func withArray<Result>(_ body: (inout [Element]) throws -> Result) rethrows -> Result {
        var array = elements ?? []
        elements = nil
        if let element = single {
            single = nil
            array = [element]
        }
        defer { elements = array }
        return try body(&array)
    }
}

extension CompactArray: RandomAccessCollection, MutableCollection {
    /// Always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of elements.
    @inlinable
    public var endIndex: Int { single == nil ? elements?.count ?? 0 : 1 }

    /// The element at `position`.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            guard let element = single else {
                guard let elements else { preconditionFailure("index \(position) of an empty CompactArray") }
                return elements[position]
            }
            precondition(position == 0, "CompactArray index \(position) out of range 0..<1")
            return element
        }
        set {
            guard single == nil else {
                precondition(position == 0, "CompactArray index \(position) out of range 0..<1")
                single = newValue
                return
            }
            withArray { $0[position] = newValue }
        }
    }

    @inlinable
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        guard let element = single else { return try (elements ?? []).withUnsafeBufferPointer(body) }
        return try withUnsafePointer(to: element) { try body(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    @inlinable
    public mutating func withContiguousMutableStorageIfAvailable<Result>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        guard var element = single else { return try withArray { try $0.withUnsafeMutableBufferPointer(body) } }
        defer { single = element }
        return try withUnsafeMutablePointer(to: &element) { pointer in
            var buffer = UnsafeMutableBufferPointer(start: pointer, count: 1)
            return try body(&buffer)
        }
    }
}

extension CompactArray: RangeReplaceableCollection {
    /// Appends `element`; a first element is kept inline.
    @inlinable
    public mutating func append(_ element: Element) {
        if elements != nil {
            elements!.append(element)
        } else if let first = single {
            single = nil
            elements = [first, element]
        } else {
            single = element
        }
    }

    @inlinable
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        withArray { $0.replaceSubrange(subrange, with: newElements) }
    }

    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        guard minimumCapacity > 1 else { return }
        withArray { $0.reserveCapacity(minimumCapacity) }
    }
}

extension CompactArray: ExpressibleByArrayLiteral {
    /// An array of the literal's elements.
    @inlinable
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension CompactArray: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order.
    @inlinable
    public static func == (lhs: CompactArray, rhs: CompactArray) -> Bool { lhs.elementsEqual(rhs) }
}

extension CompactArray: Hashable where Element: Hashable {
    /// Hashes the number of elements, then each in order.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension CompactArray: Sendable where Element: Sendable {}

extension CompactArray: CustomStringConvertible {
    /// The elements as an array prints them, as in `[1, 2]`.
    public var description: String { Array(self).description }
}
