import Foundation

/// Loads an editing trace in the format of `../shared/traces/README.md` (`.json` or `.json.gz`) as a
/// workload: every inserted character is a row inserted at its index, every deleted one a row removed.
enum TraceLoader {
    /// Why a trace could not be loaded.
    enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case malformed(path: String, reason: String)

        var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read trace \(path): \(reason)"
            case .malformed(let path, let reason): "trace \(path) is not in the editing-trace format: \(reason)"
            }
        }
    }

    private struct Trace: Decodable {
        struct Transaction: Decodable {
            var patches: [Patch]
        }

        /// `[position, deleteCount, insertText]`.
        struct Patch: Decodable {
            var position: Int
            var deleteCount: Int
            var text: String

            init(from decoder: Decoder) throws {
                var container = try decoder.unkeyedContainer()
                position = try container.decode(Int.self)
                deleteCount = try container.decode(Int.self)
                text = try container.decode(String.self)
            }
        }

        var startContent: String
        var endContent: String
        var txns: [Transaction]
    }

    /// The trace at `path` as a workload; one local transaction per patch.
    static func load(_ path: String) throws -> Workload<String> {
        let data: Data
        do {
            data = path.hasSuffix(".gz") ? try gunzip(path) : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError.unreadable(path: path, reason: "\(error)")
        }
        let trace: Trace
        do {
            trace = try JSONDecoder().decode(Trace.self, from: data)
        } catch {
            throw LoadError.malformed(path: path, reason: "\(error)")
        }
        var operations: [RowOperation<String>] = []
        for transaction in trace.txns {
            for patch in transaction.patches {
                if patch.deleteCount > 0 { operations.append(.delete(index: patch.position, count: patch.deleteCount)) }
                if !patch.text.isEmpty {
                    operations.append(
                        .insert(index: patch.position, values: patch.text.unicodeScalars.map { String($0) }))
                }
            }
        }
        return Workload(
            base: trace.startContent.unicodeScalars.map { String($0) }, operations: operations,
            expected: trace.endContent.unicodeScalars.map { String($0) })
    }

    /// The output of `gzip -dc path`.
    private static func gunzip(_ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError.unreadable(path: path, reason: "gzip -dc exited with \(process.terminationStatus)")
        }
        return data
    }
}
