import Foundation

/// Printed to stderr when the workload argument is missing or unknown.
let usage = """
    usage: listsync-bench <workload>
    workloads:
      crypto    SHA-256, HMAC-SHA256, ChaCha20, Poly1305 and ChaCha20-Poly1305 throughput as one JSON object

    """

switch CommandLine.arguments.dropFirst().first {
case "crypto":
    CryptoBenchmark.run()
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
