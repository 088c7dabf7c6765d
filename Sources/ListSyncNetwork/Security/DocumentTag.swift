import ListSyncCrypto

/// How a HELLO names its document (Protocol.md section 2.3): in clear up to version 6; from version 7 by
/// a tag that only holders of the document's secret can compute, different on every connection, so that
/// an eavesdropper learns neither the document ID nor whether two connections are of one document.
///
/// The tag is the first 16 bytes of HMAC-SHA256(secret, "LSYN document" ‖ document ID ‖ nonce), with the
/// nonce of the HELLO that carries it.
enum DocumentTag {
    /// Bytes in a tag.
    static let byteCount = 16

    /// Whether the HELLOs of a connection whose initiator offers `initiatorVersions` carry tags.
    static func isUsed(initiatorVersions: ClosedRange<UInt64>) -> Bool {
        initiatorVersions.upperBound >= SyncProtocol.firstVersionWithDocumentTag
    }

    /// HELLO's `document` field for `settings` in a HELLO with `nonce`: the tag, or the ID when `tagged`
    /// is false.
    static func field(for settings: SyncSettings, nonce: [UInt8], tagged: Bool) -> [UInt8] {
        guard tagged else { return settings.document }
        let code = HMACSHA256.authenticationCode(
            for: Array("LSYN document".utf8) + settings.document + nonce, key: settings.secret)
        return Array(code.prefix(byteCount))
    }

    /// Whether `hello` names the document of `settings` (compared in constant time).
    static func hello(_ hello: Hello, names settings: SyncSettings, tagged: Bool) -> Bool {
        ConstantTime.isEqual(hello.document, field(for: settings, nonce: hello.nonce, tagged: tagged))
    }
}
