/// Which side of a connection this peer is: the dialer initiates the handshake, the listener responds.
public enum ConnectionRole: Sendable, Hashable {
    /// Dialed the connection; sends the first HELLO.
    case initiator
    /// Accepted the connection; answers.
    case responder
}
