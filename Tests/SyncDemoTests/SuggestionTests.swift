import Testing

@testable import syncdemo

/// "Did you mean …?": the nearest command by edit distance, a swapped pair of letters counting as one edit.
@Suite struct SuggestionTests {
    /// The verbs typed at a `syncdemo peer` prompt.
    let verbs = ListCommand.verbs + PeerHelp.verbs

    @Test(arguments: [
        ("lsit", "list"), ("lst", "list"), ("lis", "list"), ("mvoe", "move"), ("ad", "add"), ("dleete", "delete"),
        ("qiut", "quit"), ("stauts", "status"), ("peesr", "peers"), ("conect", "connect"), ("eidt", "edit"),
        ("hlep", "help"), ("wiat", "wait"), ("exti", "exit"),
    ])
    func aTypoSuggestsTheCommandMeant(typed: String, meant: String) {
        #expect(Suggestion.nearest(to: typed, among: verbs) == meant)
    }

    @Test func aSwappedPairOfLettersIsOneEdit() {
        #expect(Suggestion.editDistance("lsit", "list") == 1)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
        #expect(Suggestion.editDistance("abc", "cab") == 2)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("abc", "") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }

    @Test func aWordFarFromEveryCommandSuggestsNothing() {
        #expect(Suggestion.nearest(to: "frobnicate", among: verbs) == nil)
        #expect(Suggestion.nearest(to: String(repeating: "l", count: 65), among: verbs) == nil)
    }
}
