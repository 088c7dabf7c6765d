import Foundation
import TestSupport
import Testing

@testable import ListSync

/// The JSON object splitter and joiner of field registers: exact fragments, full validation, bounded
/// work on any input, canonical joins.
struct JSONFieldsTests {
    private static func split(_ text: String) -> [JSONFields.Member]? { JSONFields.split(Array(text.utf8)[...]) }

    /// The members of `text` as (name, fragment text).
    private static func members(_ text: String) -> [[String]]? {
        split(text)?.map { [$0.name, String(decoding: $0.fragment, as: UTF8.self)] }
    }

    @Test func splitsTopLevelMembersKeepingTheirBytes() {
        let text = #" { "b" : -1.5e-3 , "a":[1, {"x": "y"}],"c":{"n":null} ,"d":"\u00e9\n" , "e":true,"f":false}  "#
        #expect(
            Self.members(text) == [
                ["b", "-1.5e-3"], ["a", #"[1, {"x": "y"}]"#], ["c", #"{"n":null}"#], ["d", #""\u00e9\n""#],
                ["e", "true"], ["f", "false"],
            ])
        #expect(Self.members("{}") == [])
        #expect(Self.members(" {\n}\t") == [])
        #expect(Self.members(#"{"":0}"#) == [["", "0"]])
    }

    @Test func decodesEscapedNames() {
        let names = Self.split(#"{"a\"b":1,"\u00e9":2,"\ud83d\ude00":3,"\/\\\b\f\n\r\t":4,"é😀":5,"\u0000":6}"#)?.map(
            \.name)
        #expect(names == ["a\"b", "é", "😀", "/\\\u{8}\u{c}\n\r\t", "é😀", "\u{0}"])
    }

    static let invalid: [String] = [
        "", " ", "{", "}", "[]", "1", #""a""#, "null", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, "{,}", #"{"a":1 "b":2}"#,
        #"{a:1}"#, #"{'a':1}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.1}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":1e+}"#,
        #"{"a":+1}"#, #"{"a":0x1}"#, #"{"a":tru}"#, #"{"a":True}"#, #"{"a":nul}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#,
        #"{"a":"\u12g4"}"#, #"{"a":"\ud800"}"#, #"{"a":"\ud800\u0041"}"#, #"{"a":"\udc00"}"#, #"{"\ud800":1}"#,
        "{\"a\":\"\u{1}\"}", "{\"a\":\"\t\"}", #"{"a":"unterminated}"#, #"{"a":[1,2}"#, #"{"a":[1,]}"#, #"{"a":[,]}"#,
        #"{"a":{"b":1}"#, #"{"a":1}x"#, #"{"a":1}{}"#, #"{"a":1,"a":2}"#, #"{"a":NaN}"#, #"{"a":Infinity}"#,
        "\u{FEFF}{}", "{\u{C}}", "{\"a\"\u{A0}:1}",
    ]

    @Test(arguments: invalid) func rejectsWhatIsNotOneObject(_ text: String) {
        #expect(Self.split(text) == nil)
    }

    /// Sizes on both sides of the limit past which names are hashed rather than compared pairwise.
    static let objectSizes = [1, 3, JSONFields.smallObject, JSONFields.smallObject + 1, 40]

    /// The JSON object of `members`, names and values as given, in their order.
    static func object(_ members: [(name: String, value: String)]) -> [UInt8] {
        Array(("{" + members.map { "\"\($0.name)\":\($0.value)" }.joined(separator: ",") + "}").utf8)
    }

    @Test(arguments: objectSizes) func aRepeatedNameIsRejectedInObjectsOfAnySize(members count: Int) {
        let members = (0..<count).map { (name: "f\($0)", value: "\($0)") }
        #expect(JSONFields.split(Self.object(members)[...])?.count == count)
        #expect(JSONFields.split(Self.object(members + [(name: "f\(count - 1)", value: "0")])[...]) == nil)
    }

    @Test(arguments: objectSizes) func editsAreTheMembersThatChangedInEitherOrder(members count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        let old = (0..<count).map { (name: "f\($0)", value: "\($0)") }
        for shuffled in [false, true] {
            var new = shuffled ? old.shuffled(using: &generator) : old
            new[0].value = #""changed""#
            let removed = count > 1 ? new.removeLast().name : nil
            new.append((name: "added", value: "true"))
            var expected: [String: [UInt8]?] = [new[0].name: Array(#""changed""#.utf8), "added": Array("true".utf8)]
            if let removed { expected[removed] = .some(nil) }
            #expect(JSONFields.edits(from: Self.object(old), to: Self.object(new)) == expected, "shuffled: \(shuffled)")
            #expect(JSONFields.edits(from: Self.object(new), to: Self.object(new)) == [:])
        }
    }

    static let malformedUTF8: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE1, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xF1, 0x80, 0x80], [0xF1, 0x80, 0x80, 0xC0],
    ]

    @Test(arguments: malformedUTF8) func rejectsMalformedUTF8InNamesAndValues(_ sequence: [UInt8]) {
        let quote = Array("\"".utf8)
        let inName = Array("{\"".utf8) + sequence + Array("\":1}".utf8)
        let inValue = Array("{\"a\":[".utf8) + quote + sequence + quote + Array("]}".utf8)
        #expect(JSONFields.split(inName[...]) == nil)
        #expect(JSONFields.split(inValue[...]) == nil)
        #expect(!JSONFields.isValidValue((quote + sequence + quote)[...]))
    }

    @Test func acceptsWellFormedUTF8AtTheBoundaries() {
        for sequence: [UInt8] in [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ] {
            let name = Array("{\"".utf8) + sequence + Array("\":1}".utf8)
            #expect(JSONFields.split(name[...])?.map { Array($0.name.utf8) } == [sequence])
        }
    }

    @Test func nestingIsBoundedAt512Levels() {
        func nested(_ depth: Int) -> [UInt8] {
            Array("{\"a\":".utf8) + Array(repeating: UInt8(ascii: "["), count: depth - 1)
                + Array(repeating: UInt8(ascii: "]"), count: depth - 1) + [UInt8(ascii: "}")]
        }
        #expect(JSONFields.split(nested(JSONFields.maximumDepth)[...])?.count == 1)
        #expect(JSONFields.split(nested(JSONFields.maximumDepth + 1)[...]) == nil)
    }

    @Test func hugeHostileInputsEndQuickly() {
        let start = ContinuousClock.now
        let opens = [UInt8(ascii: "{")] + Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(JSONFields.split(opens[...]) == nil)
        let objects = Array(String(repeating: #"{"a":"#, count: 200_000).utf8)
        #expect(JSONFields.split(objects[...]) == nil)
        let wide = "{" + (0..<100_000).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",") + "}"
        #expect(JSONFields.split(Array(wide.utf8)[...])?.count == 100_000)
        let unterminated = Array((#"{"a":""# + String(repeating: #"\\"#, count: 500_000)).utf8)
        #expect(JSONFields.split(unterminated[...]) == nil)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func joinSortsByUTF8BytesAndEscapesNamesCanonically() {
        let members = [
            JSONFields.Member(name: "é", fragment: Array("1".utf8)[...]),
            JSONFields.Member(name: "b\"\\\u{8}\u{c}\n\r\t\u{1}\u{1f}/", fragment: Array("[2]".utf8)[...]),
            JSONFields.Member(name: "Z", fragment: Array(#"{"x":null}"#.utf8)[...]),
            JSONFields.Member(name: "", fragment: Array("true".utf8)[...]),
        ]
        let joined = String(decoding: JSONFields.join(members), as: UTF8.self)
        #expect(joined == #"{"":true,"Z":{"x":null},"b\"\\\b\f\n\r\t\u0001\u001f/":[2],"é":1}"#)
        #expect(JSONFields.split(JSONFields.join(members)[...])?.map(\.name) == ["", "Z", members[1].name, "é"])
        #expect(JSONFields.join(members.reversed()) == JSONFields.join(members))
        #expect(JSONFields.join([]) == Array("{}".utf8))
    }

    /// A struct whose sorted-keys JSON the joiner reproduces byte for byte.
    struct Contact: Codable {
        var name: String
        var age: Int
        var tags: [String]
        var address: [String: String]
        var score: Double?
    }

    @Test func splitThenJoinReproducesTheEngineEncoding() {
        let contact = Contact(
            name: "Zoë \"Z\" / \\ \n", age: -3, tags: ["a", "b"], address: ["zip": "1", "city": "X"], score: 0.25)
        let encoded = ValueCoding.encode(contact)
        let members = JSONFields.split(encoded[...])
        #expect(members?.map(\.name) == ["address", "age", "name", "score", "tags"])
        #expect(members.map { JSONFields.join($0.shuffled()) } == encoded)
    }

    @Test(arguments: RunSize.seeds("LISTSYNC_JSON_SEEDS", quick: 20, long: 500))
    func randomObjectsSplitIntoTheirMembers(seed: UInt64) throws {
        announceSeed(seed, of: "randomObjectsSplitIntoTheirMembers", replay: "LISTSYNC_JSON_SEEDS")
        var generator = RandomJSON(seed: seed)
        for _ in 0..<50 {
            let (object, expected) = generator.object(depth: 1)
            let text = generator.whitespace() + object + generator.whitespace()
            let members = try #require(
                JSONFields.split(text[...]), "seed \(seed): \(String(decoding: text, as: UTF8.self))")
            #expect(members.map(\.name) == expected.map(\.name))
            #expect(members.map { Array($0.fragment) } == expected.map(\.fragment))
            #expect(JSONFields.isValidValue(text[...]))
            #expect(try JSONSerialization.jsonObject(with: Data(text)) is [String: Any])
            let canonical = JSONFields.join(members)
            #expect(JSONFields.join(members.shuffled(using: &generator.random)) == canonical)
            #expect(JSONFields.split(canonical[...]).map(JSONFields.join) == canonical)
        }
    }

    /// Whether `text` holds a number token that a `Double` cannot hold (it reads as infinite).
    private static func hasNumberBeyondDouble(_ text: [UInt8]) -> Bool {
        let numberBytes = Set("0123456789+-.eE".utf8)
        return text.split { !numberBytes.contains($0) }.contains {
            Double(String(decoding: $0, as: UTF8.self))?.isInfinite == true
        }
    }

    /// Whether `text` has a comma followed, after white space, by a closing bracket or brace.
    private static func hasTrailingComma(_ text: [UInt8]) -> Bool {
        let significant = text.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return zip(significant, significant.dropFirst()).contains {
            $0 == UInt8(ascii: ",") && ($1 == UInt8(ascii: "]") || $1 == UInt8(ascii: "}"))
        }
    }

    @Test(arguments: RunSize.seeds("LISTSYNC_JSON_SEEDS", quick: 20, long: 500))
    func mutatedInputsAreJudgedAsJSONSerializationJudgesThem(seed: UInt64) {
        announceSeed(seed, of: "mutatedInputsAreJudgedAsJSONSerializationJudgesThem", replay: "LISTSYNC_JSON_SEEDS")
        var generator = RandomJSON(seed: seed)
        for _ in 0..<200 {
            var text = generator.value(depth: 1)
            generator.mutate(&text)
            let ours = JSONFields.isValidValue(text[...])
            let foundation = (try? JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed)) != nil
            // Known differences, where we follow RFC 8259: it leaves numbers' range to implementations
            // (Foundation rejects those beyond Double's); it forbids a comma before `]` or `}` (Foundation
            // accepts one); and JSON between peers is UTF-8 (Foundation reads text with a zero byte as
            // UTF-16 or UTF-32).
            let explained =
                ours ? Self.hasNumberBeyondDouble(text) : Self.hasTrailingComma(text) || text.contains(0)
            #expect(ours == foundation || explained, "seed \(seed): ours \(ours): \(text)")
            if let members = JSONFields.split(text[...]) {
                #expect(ours)
                #expect(Set(members.map(\.name)).count == members.count)
                for member in members { #expect(JSONFields.isValidValue(member.fragment)) }
            }
        }
    }
}

/// Seeded random JSON texts with random white space, escapes and nesting, and mutations of them.
private struct RandomJSON {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func whitespace() -> [UInt8] {
        guard chance(30) else { return [] }
        return (0..<Int(random.next() % 3 + 1)).map { _ in [0x20, 0x09, 0x0A, 0x0D][Int(random.next() % 4)] }
    }

    /// A random string of scalars from a mix of ASCII, controls, quotes, backslashes and non-ASCII.
    mutating func text() -> String {
        let alphabet: [Unicode.Scalar] = [
            "a", "b", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1f}", "\n",
            "\u{7f}", "é", "\u{7ff}", "\u{800}", "€", "\u{ffff}", "😀", "\u{10ffff}",
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 6) { scalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
        return String(scalars)
    }

    /// `string` as a JSON string, each character escaped or not at random (where JSON allows both).
    mutating func quoted(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        func hex(_ unit: UInt16) -> [UInt8] { Array(String(format: "\\u%04X", unit).utf8) }
        for scalar in string.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || chance(30) {
                switch scalar {
                case "\"": bytes += Array(#"\""#.utf8)
                case "\\": bytes += Array(#"\\"#.utf8)
                case "/" where chance(50): bytes += Array(#"\/"#.utf8)
                case "\n" where chance(50): bytes += Array(#"\n"#.utf8)
                default: for unit in String(scalar).utf16 { bytes += hex(unit) }
                }
            } else {
                bytes += Array(String(scalar).utf8)
            }
        }
        return bytes + [UInt8(ascii: "\"")]
    }

    mutating func number() -> [UInt8] {
        var text = chance(30) ? "-" : ""
        text += chance(20) ? "0" : String(random.next() % 100_000 + 1)
        if chance(40) { text += "." + String(random.next() % 1000) }
        if chance(30) {
            text += (chance(50) ? "e" : "E") + ["", "+", "-"][Int(random.next() % 3)] + String(random.next() % 300)
        }
        return Array(text.utf8)
    }

    /// A random value; containers only down to a few levels.
    mutating func value(depth: Int) -> [UInt8] {
        switch random.next() % (depth < 4 ? 7 : 5) {
        case 0: return quoted(text())
        case 1: return number()
        case 2: return Array(["true", "false", "null"][Int(random.next() % 3)].utf8)
        case 3, 4: return quoted(text())
        case 5: return object(depth: depth + 1).text
        default:
            var bytes: [UInt8] = [UInt8(ascii: "[")] + whitespace()
            for offset in 0..<Int(random.next() % 4) {
                if offset > 0 { bytes += [UInt8(ascii: ",")] + whitespace() }
                bytes += value(depth: depth + 1) + whitespace()
            }
            return bytes + [UInt8(ascii: "]")]
        }
    }

    /// A random object with distinct names, and its members (decoded name, fragment bytes).
    mutating func object(depth: Int) -> (text: [UInt8], members: [(name: String, fragment: [UInt8])]) {
        var members: [(name: String, fragment: [UInt8])] = []
        var names = Set<String>()
        var bytes: [UInt8] = [UInt8(ascii: "{")] + whitespace()
        for _ in 0..<Int(random.next() % 6) {
            let name = text()
            guard names.insert(name).inserted else { continue }
            let fragment = value(depth: depth)
            if !members.isEmpty { bytes += [UInt8(ascii: ",")] + whitespace() }
            bytes += quoted(name) + whitespace() + [UInt8(ascii: ":")] + whitespace() + fragment + whitespace()
            members.append((name, fragment))
        }
        return (bytes + [UInt8(ascii: "}")], members)
    }

    /// One to three random edits: a byte flipped, inserted (often a JSON delimiter) or removed, or a cut.
    mutating func mutate(_ bytes: inout [UInt8]) {
        let delimiters = Array(#"{}[]:,"\-+.eE0u"#.utf8) + [0x20, 0x80, 0xC3, 0xED, 0xF0, 0xFF]
        for _ in 0..<Int(random.next() % 3 + 1) {
            let offset = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0 where !bytes.isEmpty: bytes[offset] ^= UInt8(1 << (random.next() % 7))
            case 1: bytes.insert(delimiters[Int(random.next() % UInt64(delimiters.count))], at: offset)
            case 2 where !bytes.isEmpty: bytes.remove(at: offset)
            default: bytes.removeSubrange(offset...)
            }
        }
    }
}
