/// Why a TXT record is not a ListSync peer's advertisement.
enum PeerAdvertisementError: Error, Hashable, Sendable {
    /// The record has no attribute `key`.
    case missingKey(String)
    /// The value of `key` is not of the form its key requires.
    case malformedValue(key: String)
}
