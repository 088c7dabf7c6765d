/// One top-level field's last-writer-wins register of a row whose value is a JSON object
/// (docs/field-registers.md).
@usableFromInline
struct FieldRegister: Hashable, Sendable {
    /// The stamp of the field edit that set it.
    @usableFromInline var stamp: Stamp
    /// The field's value as JSON text; nil when the edit removed the field.
    @usableFromInline var fragment: [UInt8]?

    /// A register set by the edit stamped `stamp` to `fragment`.
    @usableFromInline
    init(stamp: Stamp, fragment: [UInt8]?) {
        self.stamp = stamp
        self.fragment = fragment
    }
}

/// A row's field registers by field name.
@usableFromInline
typealias FieldRegisters = [String: FieldRegister]

extension Dictionary where Key == String, Value == FieldRegister {
    /// Merges `other` in: per name the register with the greater stamp, kept only when newer than the
    /// whole-value register's stamp `whole`. Returns whether anything changed.
    mutating func merge(_ other: FieldRegisters, newerThan whole: Stamp) -> Bool {
        var changed = false
        for (name, register) in other where register.stamp > whole {
            if let current = self[name], current.stamp >= register.stamp { continue }
            self[name] = register
            changed = true
        }
        return changed
    }

    /// Drops the registers that are not newer than the whole-value register's stamp `whole` (a later
    /// whole write replaces them). Returns whether any was dropped.
    mutating func dropRegisters(notNewerThan whole: Stamp) -> Bool {
        let before = count
        self = filter { $0.value.stamp > whole }
        return count != before
    }

    /// The visible value: the JSON object `whole` with each register applied (its field replaced,
    /// added, or removed when the register is absent), joined canonically; `whole` itself when there
    /// are no registers or it is not a JSON object.
    /// - Complexity: O(n + k log k) for n bytes and k fields.
    func visibleValue(of whole: ArraySlice<UInt8>) -> [UInt8] {
        guard !isEmpty, let members = JSONFields.split(whole) else { return Array(whole) }
        var fragments: [String: ArraySlice<UInt8>] = [:]
        for member in members { fragments[member.name] = member.fragment }
        for (name, register) in self { fragments[name] = register.fragment?[...] }
        return JSONFields.join(fragments.map { JSONFields.Member(name: $0.key, fragment: $0.value) })
    }
}

extension JSONFields {
    /// The field writes of a local edit from `current` (what this version makes of the row's visible
    /// value) to `new`, both JSON objects: the fragment of every member of `new` that differs from or is
    /// missing in `current`, and nil (absent) for every member of `current` that `new` lacks. Nil when
    /// either is not an object: the edit is then a whole-value write.
    static func edits(from current: [UInt8], to new: [UInt8]) -> [String: [UInt8]?]? {
        guard let old = split(current[...]), let next = split(new[...]) else { return nil }
        // One encoder wrote both, so members usually come in one order: try the same position first.
        let byName =
            old.count > smallObject ? Dictionary(uniqueKeysWithValues: old.indices.map { (old[$0].name, $0) }) : nil
        var matched = [Bool](repeating: false, count: old.count)
        var writes: [String: [UInt8]?] = [:]
        for (position, member) in next.enumerated() {
            let index =
                position < old.count && old[position].name == member.name
                ? position : byName?[member.name] ?? old.firstIndex { $0.name == member.name }
            if let index {
                matched[index] = true
                if old[index].fragment == member.fragment { continue }
            }
            writes[member.name] = Array(member.fragment)
        }
        for index in old.indices where !matched[index] { writes[old[index].name] = .some(nil) }
        return writes
    }
}
