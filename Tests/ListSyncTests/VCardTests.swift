import ListSync
import Testing

/// The vCard 3.0/4.0 reader and writer, and plain text for contacts.
struct VCardTests {
    static let folded4 = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        FN:Jean-Baptiste de la Fontaine\\, Jr.\r
        N:de la Fontaine;Jean-Baptiste;;M.;Jr.\r
        TEL;VALUE=uri;TYPE="voice,home":tel:+33-1-23-45-67-89\r
        EMAIL;TYPE=work:jb@exa\r
         mple.org\r
        NOTE:Line one\\nline two\\; with a long note that goes on and on\r
        \tand is folded with a tab\r
        item1.EMAIL:second@example.org\r
        END:VCARD\r

        """

    static let lf3 = """
        begin:vcard
        version:3.0
        n:Hopper;Grace;Brewster;RADM;
        fn:Grace Hopper
        tel;type=cell:+1 202 555 0143
        email;type=internet:grace@navy.example
        end:vcard
        """

    @Test func readsAFoldedEscapedVCard4WithCRLF() throws {
        let card = try VCard(vCard: Array(Self.folded4.utf8))
        #expect(card.formattedName == "Jean-Baptiste de la Fontaine, Jr.")
        #expect(
            card.name == VCard.Name(family: "de la Fontaine", given: "Jean-Baptiste", prefixes: "M.", suffixes: "Jr."))
        #expect(card.phones == ["+33-1-23-45-67-89"])
        #expect(card.emails == ["jb@example.org", "second@example.org"])
    }

    @Test func readsAVCard3WithLFAndLowercaseNames() throws {
        let card = try VCard(vCard: Array(Self.lf3.utf8))
        #expect(
            card
                == VCard(
                    formattedName: "Grace Hopper",
                    name: VCard.Name(family: "Hopper", given: "Grace", additional: "Brewster", prefixes: "RADM"),
                    phones: ["+1 202 555 0143"], emails: ["grace@navy.example"]))
    }

    @Test(arguments: [VCard.Version.v3, .v4])
    func writesWhatItReads(version: VCard.Version) throws {
        let card = VCard(
            formattedName:
                "Zoë; \"Ω\", back\\slash\nand a very long name that certainly needs folding past seventy-five bytes 😀",
            name: VCard.Name(family: "Ångström", given: "Zoë"), phones: ["+46 8 123"], emails: ["z@example.se"])
        let data = card.vCardData(version: version)
        let text = try #require(String(validating: data, as: UTF8.self))
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:\(version.rawValue)\r\n") && text.hasSuffix("END:VCARD\r\n"))
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(try VCard(vCard: data) == card)
        #expect(try VCard(data: card.data(for: .vCard), typeIdentifier: .vCard) == card)
    }

    @Test(arguments: [
        ("", "no BEGIN:VCARD"),
        ("BEGIN:VCARD\nVERSION:4.0\nFN:A\n", "no END:VCARD"),
        ("BEGIN:VCARD\nVERSION:2.1\nFN:A\nEND:VCARD", "line 2: unsupported version 2.1"),
        ("BEGIN:VCARD\nVERSION:4.0\nN:A;B\nEND:VCARD", "no FN property"),
        ("BEGIN:VCARD\nFN A\nEND:VCARD", "line 2: no ':'"),
        ("FN:A\n", "line 1: expected BEGIN:VCARD"),
        ("BEGIN:VCARD\nFN:A\nEND:VCARD\nFN:B", "line 4: content after END:VCARD"),
    ])
    func rejectsMalformedCards(text: String, reason: String) {
        #expect(throws: RepresentationError.malformedData(.vCard, reason: reason)) {
            try VCard(vCard: Array(text.utf8))
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: RepresentationError.malformedData(.vCard, reason: "invalid UTF-8")) { try VCard(vCard: [0xC3]) }
        #expect(throws: RepresentationError.malformedData(.utf8PlainText, reason: "invalid UTF-8")) {
            try String(data: [0xFF], typeIdentifier: .utf8PlainText)
        }
    }

    @Test func readsAndWritesPlainText() throws {
        let card = VCard(formattedName: "Ada Lovelace", phones: ["+44 20 7946 0000"], emails: ["ada@example.org"])
        #expect(card.plainText() == "Ada Lovelace\n+44 20 7946 0000\nada@example.org")
        #expect(try VCard(plainText: Array("Ada Lovelace\r\n+44 20 7946 0000\r\nada@example.org\r\n".utf8)) == card)
        #expect(try VCard(data: card.data(for: .utf8PlainText), typeIdentifier: .utf8PlainText) == card)
        #expect(throws: RepresentationError.malformedData(.utf8PlainText, reason: "empty text")) {
            try VCard(plainText: Array(" \n\n".utf8))
        }
        #expect(VCard.preferredReadableType(among: [.utf8PlainText, .vCard]) == .vCard)
        #expect(card.representations().map(\.typeIdentifier) == [.vCard, .utf8PlainText])
    }
}
