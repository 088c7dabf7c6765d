/// A value that crosses a drag boundary: it reads and writes data of some type identifiers.
///
/// Identifiers are listed in order of fidelity, best first (a contact: vCard, then plain text). A drop
/// reads the first identifier of ``readableTypeIdentifiers`` that an item offers; a drag offers every
/// identifier of ``writableTypeIdentifiers`` it can encode.
public protocol DragRepresentable: Sendable {
    /// The identifiers this type decodes, best first.
    static var readableTypeIdentifiers: [TypeIdentifier] { get }
    /// The identifiers this type encodes, best first.
    static var writableTypeIdentifiers: [TypeIdentifier] { get }
    /// Decodes a value from `data` of `typeIdentifier`.
    /// - Throws: ``RepresentationError/unsupportedTypeIdentifier(_:)`` or
    ///   ``RepresentationError/malformedData(_:reason:)``.
    init(data: [UInt8], typeIdentifier: TypeIdentifier) throws(RepresentationError)
    /// Encodes the value as data of `typeIdentifier`.
    /// - Throws: ``RepresentationError/unsupportedTypeIdentifier(_:)``.
    func data(for typeIdentifier: TypeIdentifier) throws(RepresentationError) -> [UInt8]
}

extension DragRepresentable {
    /// The first identifier of ``readableTypeIdentifiers`` among `offered`, or nil.
    /// - Complexity: O(r × o) for r readable and o offered identifiers (both a handful); builds nothing.
    public static func preferredReadableType(among offered: some Sequence<TypeIdentifier>) -> TypeIdentifier? {
        for readable in readableTypeIdentifiers where offered.contains(readable) { return readable }
        return nil
    }

    /// The value's data in every writable identifier it encodes, best first.
    public func representations() -> [Representation] {
        Self.writableTypeIdentifiers.compactMap { identifier in
            do {
                return Representation(typeIdentifier: identifier, data: try data(for: identifier))
            } catch {
                return nil  // this value has no such representation; the others still travel
            }
        }
    }
}

/// Data of one type identifier.
public struct Representation: Hashable, Sendable {
    /// What the data is.
    public var typeIdentifier: TypeIdentifier
    /// The bytes.
    public var data: [UInt8]

    /// Creates a representation.
    public init(typeIdentifier: TypeIdentifier, data: [UInt8]) {
        self.typeIdentifier = typeIdentifier
        self.data = data
    }
}

/// Strings travel as UTF-8 plain text.
extension String: DragRepresentable {
    /// UTF-8 plain text.
    public static let readableTypeIdentifiers: [TypeIdentifier] = [.utf8PlainText]
    /// UTF-8 plain text.
    public static let writableTypeIdentifiers: [TypeIdentifier] = [.utf8PlainText]

    /// Decodes UTF-8 plain text; invalid UTF-8 is malformed.
    public init(data: [UInt8], typeIdentifier: TypeIdentifier) throws(RepresentationError) {
        guard typeIdentifier == .utf8PlainText else { throw .unsupportedTypeIdentifier(typeIdentifier) }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .malformedData(typeIdentifier, reason: "invalid UTF-8")
        }
        self = text
    }

    /// Encodes as UTF-8 plain text.
    public func data(for typeIdentifier: TypeIdentifier) throws(RepresentationError) -> [UInt8] {
        guard typeIdentifier == .utf8PlainText else { throw .unsupportedTypeIdentifier(typeIdentifier) }
        return Array(utf8)
    }
}
