import Foundation
import ListSync

/// A bad command line: printed with the usage, exit code 64.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let usage = """
    OVERVIEW: ListSync benchmarks. One JSON object per workload on standard output, progress on standard error.

    USAGE: listsync-bench <workload> [arguments] [--repeat R] [--seed S]

    WORKLOADS:
      trace FILE              an editing trace (.json or .json.gz); every character is a row
      append N                N single-row appends
      random-insert N         N single-row inserts at random indexes
      random-move N           N single-row moves on N rows
      block-move N K          N/K drags of K contiguous rows on N rows
      random-update N         N value updates on N rows
      random-field-update N   N one-field edits of N to-do rows (four-field structs), with change-set bytes per edit
      concurrent-merge N      N rows; two replicas do N/2 random operations each, then merge both ways
      interleave N            N pairs of replicas filling one gap concurrently (forward runs, backward runs,
                              blocks); counts the pairs whose rows interleave
      large N OPS             on N rows, OPS random single-row inserts, then moves, then deletes, each timed
      keys PATTERN N          key lengths after N operations; PATTERN: \(KeysBenchmark.patterns.joined(separator: ", "))
      all [--markdown]        every workload at N = 100,000 and the trace ../shared/traces/automerge-paper.json.gz
      crypto                  SHA-256, HMAC-SHA256, ChaCha20, Poly1305 and ChaCha20-Poly1305 throughput
      store [options]         durable storage: commits/s (always, batched), open time, snapshot bytes/row
      network [OPS]           3 and 5 peers converging over loopback after OPS edits each (10000), live throughput,
                              latency from an edit to the other peer's change event (median, p99)

    OPTIONS:
      --repeat R              timed runs per workload; the median is reported (default 5)
      --seed S                seed of the random workloads (default 42)
      --size N                N for `all` (default 100000)
      --trace FILE            the trace for `all`
      --markdown              with `all`: also print one Markdown table
      -h, --help              show this help

    """

/// Parsed options and positional arguments.
struct Options {
    var positional: [String] = []
    var repeats = 5
    var seed: UInt64 = 42
    var size = 100_000
    var trace = "../shared/traces/automerge-paper.json.gz"
    var markdown = false

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
                return value
            }
            switch argument {
            case "--repeat": repeats = try Self.number(try value(), for: argument)
            case "--seed": seed = UInt64(try Self.number(try value(), for: argument))
            case "--size": size = try Self.number(try value(), for: argument)
            case "--trace": trace = try value()
            case "--markdown": markdown = true
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option \(argument)") }
                positional.append(argument)
            }
        }
    }

    static func number(_ text: String, for name: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("\(name) takes a positive whole number, not '\(text)'")
        }
        return value
    }

    /// The positional argument at `index`, as a positive number.
    func number(_ index: Int, _ name: String) throws -> Int {
        guard index < positional.count else { throw UsageError("missing \(name)") }
        return try Self.number(positional[index], for: name)
    }
}

func runWorkload(_ options: Options) throws -> [JSONObject] {
    var generator = SplitMix64(seed: options.seed)
    let name = options.positional.first ?? ""
    switch name {
    case "trace":
        guard options.positional.count > 1 else { throw UsageError("trace needs a FILE") }
        return [try ListBenchmark.run("trace", try TraceLoader.load(options.positional[1]), repeats: options.repeats)]
    case "append":
        return [try ListBenchmark.run(name, .append(try options.number(1, "N")), repeats: options.repeats)]
    case "random-insert":
        return [
            try ListBenchmark.run(
                name, .randomInsert(try options.number(1, "N"), using: &generator), repeats: options.repeats)
        ]
    case "random-move":
        return [
            try ListBenchmark.run(
                name, .randomMove(try options.number(1, "N"), using: &generator), repeats: options.repeats)
        ]
    case "block-move":
        let count = try options.number(1, "N")
        let block = try options.number(2, "K")
        guard block <= count else { throw UsageError("block-move needs K <= N") }
        return [
            try ListBenchmark.run(name, .blockMove(count, block: block, using: &generator), repeats: options.repeats)
        ]
    case "random-update":
        return [
            try ListBenchmark.run(
                name, .randomUpdate(try options.number(1, "N"), using: &generator), repeats: options.repeats)
        ]
    case "random-field-update":
        return [
            try FieldUpdateBenchmark.run(rows: try options.number(1, "N"), repeats: options.repeats, seed: options.seed)
        ]
    case "concurrent-merge":
        return [
            try ConcurrentMergeBenchmark.run(
                rows: try options.number(1, "N"), repeats: options.repeats, seed: options.seed)
        ]
    case "interleave":
        return [try InterleaveBenchmark.run(pairs: try options.number(1, "N"), seed: options.seed)]
    case "keys":
        guard options.positional.count > 1 else { throw UsageError("keys needs a PATTERN") }
        return [
            try KeysBenchmark.run(
                pattern: options.positional[1], operations: try options.number(2, "N"), seed: options.seed)
        ]
    case "large":
        return [
            try LargeListBenchmark.run(
                rows: try options.number(1, "N"), operations: try options.number(2, "OPS"), repeats: options.repeats,
                seed: options.seed)
        ]
    case "all":
        return try AllBenchmarks.run(options)
    case "network":
        try NetworkBenchmark.run(arguments: options.positional.dropFirst())
        return []
    default:
        throw UsageError(name.isEmpty ? "missing workload" : "unknown workload '\(name)'")
    }
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("-h") || arguments.contains("--help") {
    print(usage, terminator: "")
    exit(0)
}
if arguments.first == "crypto" {
    CryptoBenchmark.run()
    exit(0)
}
if arguments.first == "store" {
    StoreBenchmark.run(arguments: arguments.dropFirst())
    exit(0)
}
do {
    let options = try Options(arguments)
    for result in try runWorkload(options) { print(result) }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("listsync-bench: \(error)\n\n\(usage)".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("listsync-bench: \(error)\n".utf8))
    exit(1)
}
