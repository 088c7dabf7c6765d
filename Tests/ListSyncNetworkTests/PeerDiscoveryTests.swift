import Testing

@testable import ListSyncNetwork

/// The names a ``PeerDiscovery`` advertises: cut to a DNS label, host names made of letters, digits
/// and hyphens.
struct PeerDiscoveryTests {
    @Test func theDefaultsAdvertiseAndBrowseAsTheHostNameOnARandomHost() {
        let discovery = PeerDiscovery()
        #expect(discovery.instanceName == PeerDiscovery.systemHostName)
        #expect(!discovery.instanceName.isEmpty && !discovery.instanceName.contains("."))
        #expect(discovery.hostName == nil)
        #expect(discovery.advertises && discovery.browses)
    }

    @Test func aLongInstanceNameIsCutAtACharacterWithin63Bytes() {
        let name = String(repeating: "é", count: 40)  // 80 bytes
        let discovery = PeerDiscovery(instanceName: name)
        #expect(discovery.instanceName == String(repeating: "é", count: 31))
        #expect(PeerDiscovery(instanceName: "").instanceName == "ListSync")
    }

    @Test(arguments: [
        ("kitchen", "kitchen"), ("Kitchen iPad", "Kitchen-iPad"), ("-café-", "caf"), ("a.b", "a-b"),
        ("…", "listsync"), (String(repeating: "x", count: 70), String(repeating: "x", count: 63)),
    ])
    func hostNamesKeepLettersDigitsAndInnerHyphens(given: String, advertised: String) {
        #expect(PeerDiscovery(hostName: given).hostName == advertised)
    }
}
