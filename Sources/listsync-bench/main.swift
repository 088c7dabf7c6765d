import Foundation

/// Printed to stderr when the workload argument is missing or unknown.
let usage = """
    usage: listsync-bench <workload>
    workloads:
      crypto    SHA-256, HMAC-SHA256, ChaCha20, Poly1305 and ChaCha20-Poly1305 throughput as one JSON object
      store     durable storage: commits/s (always, batched), open time of a large replica, snapshot bytes/row

    """

switch CommandLine.arguments.dropFirst().first {
case "crypto":
    CryptoBenchmark.run()
case "store": StoreBenchmark.run(arguments: CommandLine.arguments.dropFirst(2))
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
