import Foundation
import ListSync

/// Every workload at one size, printed as JSON lines as they finish, and optionally as a Markdown table.
enum AllBenchmarks {
    static func run(_ options: Options) throws -> [JSONObject] {
        let size = options.size
        var results: [JSONObject] = []
        func record(_ result: JSONObject) {
            print(result)
            results.append(result)
        }
        func workload(_ make: (inout SplitMix64) -> Workload<Int>) -> Workload<Int> {
            var generator = SplitMix64(seed: options.seed)
            return make(&generator)
        }
        Measurement.progress("trace \(options.trace)")
        record(try ListBenchmark.run("trace", try TraceLoader.load(options.trace), repeats: options.repeats))
        let lists: [(String, Workload<Int>)] = [
            ("append", .append(size)),
            ("random-insert", workload { .randomInsert(size, using: &$0) }),
            ("random-move", workload { .randomMove(size, using: &$0) }),
            ("block-move", workload { .blockMove(size, block: 10, using: &$0) }),
            ("random-update", workload { .randomUpdate(size, using: &$0) }),
        ]
        for (name, list) in lists {
            Measurement.progress(name)
            record(try ListBenchmark.run(name, list, repeats: options.repeats))
        }
        Measurement.progress("random-field-update")
        record(try FieldUpdateBenchmark.run(rows: size, repeats: options.repeats, seed: options.seed))
        Measurement.progress("concurrent-merge")
        record(try ConcurrentMergeBenchmark.run(rows: size, repeats: options.repeats, seed: options.seed))
        Measurement.progress("large")
        record(
            try LargeListBenchmark.run(rows: 10 * size, operations: size, repeats: options.repeats, seed: options.seed))
        for pattern in KeysBenchmark.patterns {
            record(try KeysBenchmark.run(pattern: pattern, operations: size, seed: options.seed))
        }
        if options.markdown { print(markdown(results)) }
        return []
    }

    /// One table: a row per workload.
    static func markdown(_ results: [JSONObject]) -> String {
        func field(_ result: JSONObject, _ key: String, scale: Double = 1, digits: Int = 0) -> String {
            guard let text = result.value(key), let number = Double(text) else { return "" }
            return String(format: "%.\(digits)f", number * scale)
        }
        var lines = [
            "| workload | row ops | apply (ms) | ops/s | snapshot (bytes) | load (ms) | full merge (ms) | RSS/row (bytes) | keys avg / max (bytes) | correct |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for result in results {
            let name = [result.value("bench"), result.value("pattern")].compactMap {
                $0?.replacingOccurrences(of: "\"", with: "")
            }
            .joined(separator: " ")
            let correct =
                result.value("correct") ?? result.value("converged").map {
                    "\($0), dup \(result.value("duplicates") ?? "?"), lost \(result.value("lost") ?? "?"), revived \(result.value("resurrected") ?? "?")"
                } ?? ""
            let apply =
                result.value("apply_s") != nil
                ? field(result, "apply_s", scale: 1000, digits: 1)
                : result.value("local_apply_s") != nil
                    ? field(result, "local_apply_s", scale: 1000, digits: 1) + " (local)" : ""
            let bytes =
                result.value("snapshot_bytes") ?? result.value("bytes_a_to_b").map { "\($0) (changes, A to B)" } ?? ""
            let rate =
                result.value("insert_ops_per_s").map {
                    "insert \($0), move \(result.value("move_ops_per_s") ?? ""), delete \(result.value("delete_ops_per_s") ?? "")"
                } ?? field(result, "ops_per_s")
            lines.append(
                "| \(name) | \(result.value("ops") ?? "") | \(apply) | \(rate) | \(bytes) | "
                    + "\(field(result, "load_s", scale: 1000, digits: 1)) | \(field(result, "merge_s", scale: 1000, digits: 1)) | "
                    + "\(result.value("rss_delta_bytes_per_row") ?? "") | \(field(result, "key_bytes_avg", digits: 2)) / \(result.value("key_bytes_max") ?? "") | \(correct) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
