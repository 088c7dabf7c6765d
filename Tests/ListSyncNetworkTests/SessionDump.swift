import ListSync

@testable import ListSyncNetwork

/// A real session between two nodes with fixed nonces, rendered as the annotated hex dump of Protocol.md.
enum SessionDump {
    /// Runs the session: A (replica 0x0A, holding "milk") dials B (replica 0x0B, empty); after the sync
    /// B appends "eggs", A sends a heartbeat, then A closes.
    static func render() throws -> String {
        var pair = NodePair()
        pair.initiator.edit { $0.append("milk") }
        try pair.exchange()
        pair.responder.edit { $0.append("eggs") }
        try pair.exchange()
        pair.initiator.queueHeartbeat(on: NodePair.initiatorConnection)
        try pair.exchange()
        let close = pair.initiator.close(NodePair.initiatorConnection, because: .shuttingDown)
        let chunks = pair.transcript + [(fromInitiator: true, bytes: close)]
        return try describe(chunks)
    }

    /// One block per frame: direction, message, and the bytes (with the plaintext body of sealed frames).
    private static func describe(_ chunks: [(fromInitiator: Bool, bytes: [UInt8])]) throws -> String {
        var lines: [String] = []
        var hellos: [Bool: (Hello, [UInt8])] = [:]
        var ciphers: [Bool: FrameCipher] = [:]
        for (fromInitiator, bytes) in chunks {
            for frame in splitFrames(bytes) {
                let direction = fromInitiator ? "A -> B" : "B -> A"
                let prefix = Array(frame[..<4])
                if var cipher = ciphers[fromInitiator] {
                    let counter = cipher.counter
                    let body = try cipher.open(prefix: prefix, sealed: frame[4...])
                    ciphers[fromInitiator] = cipher
                    let name = try SyncMessage(decoding: body[...]).type
                    lines.append(
                        "\(direction)  \(String(describing: name).uppercased()) sealed, frame counter \(counter), \(frame.count) bytes"
                    )
                    lines += hex(frame, label: "frame")
                    lines += hex(body, label: "body")
                } else {
                    let body = Array(frame[4...])
                    let message = try SyncMessage(decoding: body[...])
                    lines.append(
                        "\(direction)  \(String(describing: message.type).uppercased()) plaintext, \(frame.count) bytes"
                    )
                    lines += hex(frame, label: "frame")
                    if case .hello(let hello) = message { hellos[fromInitiator] = (hello, body) }
                    if case .auth = message, ciphers.isEmpty, let a = hellos[true], let b = hellos[false],
                        !fromInitiator
                    {
                        let keys = HandshakeKeys(
                            secret: SyncSettings.test.secret, initiatorHello: a.0, initiatorBody: a.1,
                            responderHello: b.0, responderBody: b.1)
                        ciphers = [
                            true: FrameCipher(key: keys.initiatorToResponder),
                            false: FrameCipher(key: keys.responderToInitiator),
                        ]
                        lines += hex(keys.initiatorToResponder, label: "key A->B")
                        lines += hex(keys.responderToInitiator, label: "key B->A")
                    }
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `label  offset  16 bytes of hex` lines.
    private static func hex(_ bytes: [UInt8], label: String) -> [String] {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            let row = bytes[start..<min(bytes.count, start + 16)]
            let offset = String(start, radix: 16)
            let hexBytes = row.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            let title = start == 0 ? label : ""
            return "  " + title.padding(toLength: 9, withPad: " ", startingAt: 0)
                + String(repeating: "0", count: 4 - offset.count) + offset + "  " + hexBytes.joined(separator: " ")
        }
    }
}
