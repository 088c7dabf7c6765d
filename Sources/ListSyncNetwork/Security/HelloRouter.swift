/// Chooses which of a peer's documents an accepted connection is for, from its first frame: the
/// initiator's HELLO (Protocol.md section 2.4, "One port, many documents").
///
/// Holds the bytes received until then (at most one handshake frame and what arrived with it), so that
/// the connection's channel can be opened on the chosen document and read them from the start. Refuses
/// the way a channel of one document would, and the same way whichever document was guessed: error 5
/// when no document speaks a version the initiator offers, error 6 when none is the one HELLO names;
/// every candidate's tag is computed, so the time taken does not tell which one matched.
struct HelloRouter {
    /// Splits the first frame off the received bytes.
    private var framing = Framing(maximumFrameByteCount: SyncProtocol.maximumHandshakeFrameByteCount)
    /// Everything received so far, for the chosen document's channel.
    private(set) var received: [UInt8] = []

    /// Appends received bytes; call ``route(among:)`` after each.
    mutating func receive(_ bytes: some Collection<UInt8>) {
        received.append(contentsOf: bytes)
        framing.append(bytes)
    }

    /// Bytes received and not yet part of a complete frame, and the length of the frame they start.
    var partialFrame: (received: Int, expected: Int)? {
        guard framing.bufferedByteCount > 0 else { return nil }
        return (framing.bufferedByteCount, 4 + (framing.announcedLength ?? 0))
    }

    /// The index in `documents` of the document HELLO names, once its frame is whole; nil until then.
    mutating func route(among documents: [SyncSettings]) throws(SyncError) -> Int? {
        guard let (_, body) = try framing.nextFrame() else { return nil }
        let hello: Hello
        switch try SyncMessage(decoding: body) {
        case .hello(let decoded): hello = decoded
        case .close(let code, let reason): throw .closedByPeer(code: code, reason: reason)
        case let message: throw .unexpectedMessage(type: message.type.rawValue, phase: "in the handshake")
        }
        let candidates = documents.indices.filter {
            SyncProtocol.highestCommonVersion(of: documents[$0].versions, and: hello.versions) != nil
        }
        guard !candidates.isEmpty else {
            let lowest = documents.map(\.versions.lowerBound).min() ?? SyncProtocol.versions.lowerBound
            let highest = documents.map(\.versions.upperBound).max() ?? SyncProtocol.versions.upperBound
            throw .unsupportedVersion(offered: hello.versions, supported: lowest...highest)
        }
        let tagged = DocumentTag.isUsed(initiatorVersions: hello.versions)
        let named = candidates.filter { DocumentTag.hello(hello, names: documents[$0], tagged: tagged) }
        guard let chosen = named.first else { throw .wrongDocument }
        return chosen
    }
}
