/// Plaintexts quoted in RFC 8439; each vector's hex dump in the RFC is exactly the UTF-8 of these strings.
enum RFC8439Texts {
    /// Section 2.4.2 and 2.8.2 plaintext (114 bytes).
    static let sunscreen = Array(
        ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
            + "sunscreen would be it.").utf8
    )

    /// Appendix A.2 test vector #2 plaintext and A.3 test vectors #2 and #3 message (375 bytes).
    static let ietfContribution = Array(
        ("Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
            + "Internet-Draft or RFC and any statement made within the context of an IETF activity is considered "
            + "an \"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as "
            + "written and electronic communications made at any time or place, which are addressed to").utf8
    )

    /// Appendix A.2 test vector #3 plaintext and A.3 test vector #4 message (127 bytes).
    static let jabberwocky = Array(
        ("'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"
            + "All mimsy were the borogoves,\nAnd the mome raths outgrabe.").utf8
    )

    /// Appendix A.5 decrypted plaintext (265 bytes), ending in typographic quotes U+201C and U+201D.
    static let internetDrafts = Array(
        ("Internet-Drafts are draft documents valid for a maximum of six months and may be updated, replaced, "
            + "or obsoleted by other documents at any time. It is inappropriate to use Internet-Drafts as "
            + "reference material or to cite them other than as /\u{201C}work in progress./\u{201D}").utf8
    )
}
