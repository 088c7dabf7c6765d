import Dispatch
import Foundation
import ListSyncCrypto

/// Measures ListSyncCrypto throughput on 64 KiB buffers and prints one JSON object on stdout.
enum CryptoBenchmark {
    /// Bytes processed per operation.
    private static let bufferByteCount = 64 * 1024
    /// Timed runs per workload; the median is reported.
    private static let runCount = 5
    /// Minimum duration of one timed run, in nanoseconds.
    private static let minimumRunNanoseconds: UInt64 = 300_000_000

    /// One named workload; `operation` processes `bufferByteCount` bytes.
    private struct Workload {
        /// JSON field prefix, e.g. `sha256` for `sha256_mb_s`.
        let name: String
        /// Processes one buffer and returns a byte of its output, so the optimizer cannot discard the work.
        let operation: () throws -> UInt8
    }

    /// Runs every workload and prints `{"bench":"crypto","<name>_mb_s":median,"<name>_mb_s_min":...,...}`.
    static func run() {
        do {
            print(try measureAll())
        } catch {
            FileHandle.standardError.write(Data("crypto benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The workloads, all over the same deterministic 64 KiB input.
    private static func workloads() throws -> [Workload] {
        let input = (0..<bufferByteCount).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let key = (0..<32).map { UInt8($0) }
        let nonce = [UInt8](repeating: 7, count: 12)
        let associatedData = [UInt8](repeating: 0xa5, count: 16)
        let cipher = try ChaCha20(key: key, nonce: nonce)
        let sealed = try ChaChaPoly.seal(input, key: key, nonce: nonce, authenticating: associatedData)
        return [
            Workload(name: "sha256") { SHA256.hash(input)[0] },
            Workload(name: "hmac_sha256") { HMACSHA256.authenticationCode(for: input, key: key)[0] },
            Workload(name: "chacha20") { try cipher.encrypt(input, counter: 1)[0] },
            Workload(name: "poly1305") { try Poly1305.authenticationCode(for: input, key: key)[0] },
            Workload(name: "aead") {
                try ChaChaPoly.seal(input, key: key, nonce: nonce, authenticating: associatedData).tag[0]
            },
            Workload(name: "aead_open") {
                let opened = try ChaChaPoly.open(
                    sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, authenticating: associatedData
                )
                return opened[0]
            },
        ]
    }

    /// Times every workload `runCount` times and returns the JSON object with median, min and max MB/s.
    private static func measureAll() throws -> String {
        var fields = ["\"bench\":\"crypto\""]
        // XOR of every run's last output byte; printed so that no workload's result goes unused.
        var checksum: UInt8 = 0
        for workload in try workloads() {
            var rates: [Double] = []
            for _ in 0..<runCount {
                let (rate, outputByte) = try measure(workload.operation)
                rates.append(rate)
                checksum ^= outputByte
            }
            rates.sort()
            fields.append("\"\(workload.name)_mb_s\":\(format(rates[runCount / 2]))")
            fields.append("\"\(workload.name)_mb_s_min\":\(format(rates[0]))")
            fields.append("\"\(workload.name)_mb_s_max\":\(format(rates[runCount - 1]))")
        }
        fields.append("\"buffer_bytes\":\(bufferByteCount)")
        fields.append("\"runs\":\(runCount)")
        fields.append("\"checksum\":\(checksum)")
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Repeats `operation` for at least `minimumRunNanoseconds`; returns MB/s (10^6 bytes) and its last output byte.
    private static func measure(
        _ operation: () throws -> UInt8
    ) throws -> (rate: Double, outputByte: UInt8) {
        var outputByte: UInt8 = 0
        var iterations = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed: UInt64 = 0
        while elapsed < minimumRunNanoseconds {
            outputByte = try operation()
            iterations += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        }
        let bytes = Double(iterations * bufferByteCount)
        return (bytes / (Double(elapsed) / 1e9) / 1e6, outputByte)
    }

    /// Formats a rate with one decimal place.
    private static func format(_ rate: Double) -> String {
        String((rate * 10).rounded() / 10)
    }
}
