/// The type byte that starts every frame body (Protocol.md section 2.3).
enum MessageType: UInt8, Sendable {
    /// Plaintext: opens the handshake.
    case hello = 0x01
    /// Plaintext: the handshake proof.
    case auth = 0x02
    /// Plaintext before authentication, encrypted after: why the sender closes.
    case close = 0x0F
    /// Encrypted: the sender's version vector, once, right after the handshake.
    case vector = 0x10
    /// Encrypted: a change set (Protocol.md section 1).
    case changes = 0x11
    /// Encrypted: the sender's version vector after merging.
    case ack = 0x12
    /// Encrypted: keeps an idle connection alive.
    case heartbeat = 0x13
    /// Encrypted: the next bytes of a change set too big for one frame; a CHANGES ends it.
    case piece = 0x14
    /// Encrypted, version 6 on: presence updates of peers (``PresenceTable/Update``).
    case presence = 0x15
}
