import ListSync

/// A client's contact card: reads and writes vCard 3.0/4.0 and UTF-8 text (ListSync's `VCard`).
typealias ContactCard = VCard

/// Why a simulated transfer from another app failed.
enum TransferError: Error {
    /// The source app went away before sending the data.
    case sourceWentAway
}

/// A contact offered by another app as vCard data that arrives when `release()` is called, or fails
/// when `card` is nil, like an `NSItemProvider` loading over a slow channel.
struct IncomingContact {
    /// The drop item: a provider of `public.vcard`.
    let item: DropItem<ContactCard>
    private let gate: AsyncStream<Void>.Continuation

    /// A contact that will deliver `card`, or fail when it is nil.
    init(_ card: ContactCard?) {
        let (signal, gate) = AsyncStream<Void>.makeStream()
        self.gate = gate
        let bytes = card?.vCardData(version: .v3)
        item = DropItem(
            .provider(typeIdentifiers: [.vCard, .utf8PlainText]) { _ in
                for await _ in signal { break }
                guard let bytes else { throw TransferError.sourceWentAway }
                return bytes
            })
    }

    /// Lets the data arrive (or the failure happen).
    func release() {
        gate.yield()
        gate.finish()
    }
}
