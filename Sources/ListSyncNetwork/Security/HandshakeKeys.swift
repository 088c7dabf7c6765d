import ListSyncCrypto

/// The proofs and per-direction frame keys of one connection, derived from the secret and both HELLOs.
///
/// See Protocol.md section 2.5: HKDF-SHA256 with both nonces as salt, HMAC-SHA256 over the transcript.
struct HandshakeKeys {
    /// Bytes in an AUTH proof.
    static let proofByteCount = 32

    /// The initiator's AUTH proof.
    let initiatorProof: [UInt8]
    /// The responder's AUTH proof (covers the initiator's proof too).
    let responderProof: [UInt8]
    /// The key of frames from the initiator to the responder.
    let initiatorToResponder: [UInt8]
    /// The key of frames from the responder to the initiator.
    let responderToInitiator: [UInt8]

    /// Derives everything from the secret and the two HELLO frame bodies (type byte included).
    init(secret: [UInt8], initiatorHello: Hello, initiatorBody: [UInt8], responderHello: Hello, responderBody: [UInt8])
    {
        let transcript = initiatorBody + responderBody
        let salt = initiatorHello.nonce + responderHello.nonce
        let transcriptHash = SHA256.hash(transcript)
        func derive(_ label: String) -> [UInt8] {
            do {
                return try HKDFSHA256.deriveKey(
                    inputKeyMaterial: secret, salt: salt, info: Array(label.utf8) + transcriptHash, outputByteCount: 32)
            } catch {
                // 32 bytes is far below HKDF's limit of 255 × 32, its only failure.
                preconditionFailure("HKDF refused 32 bytes: \(error)")
            }
        }
        let authenticationKey = derive("ListSync v1 auth")
        initiatorProof = HMACSHA256.authenticationCode(
            for: Array("ListSync v1 initiator proof".utf8) + transcript, key: authenticationKey)
        responderProof = HMACSHA256.authenticationCode(
            for: Array("ListSync v1 responder proof".utf8) + transcript + initiatorProof, key: authenticationKey)
        initiatorToResponder = derive("ListSync v1 initiator to responder")
        responderToInitiator = derive("ListSync v1 responder to initiator")
    }
}
