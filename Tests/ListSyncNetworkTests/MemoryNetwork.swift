import ListSync

@testable import ListSyncNetwork

/// Sync nodes joined by in-memory links: bytes move in random chunks, in a seeded random order.
///
/// Each link is a pair of byte pipes; delivery keeps each pipe's order (like TCP) but interleaves pipes
/// and splits frames at random points, so framing, handshake and relay are exercised as over sockets.
final class MemoryNetwork {
    /// One direction of a link.
    struct Pipe {
        /// Sending node and its connection.
        let from: Int
        let fromConnection: ConnectionID
        /// Receiving node and its connection.
        let to: Int
        let toConnection: ConnectionID
        /// Bytes sent, not delivered yet.
        var inFlight: [UInt8] = []
        /// Whether the link was closed.
        var isClosed = false
    }

    /// The nodes.
    let nodes: [SyncNode<ReplicatedList<String>>]
    /// Every pipe, two per link.
    private(set) var pipes: [Pipe] = []
    /// Drives delivery order and chunk sizes.
    var generator: SplitMix64
    /// Errors that closed links: (receiving node, error).
    private(set) var errors: [(node: Int, error: SyncError)] = []
    /// Every chunk delivered: (from, to, bytes), in order.
    private(set) var deliveries: [(from: Int, to: Int, bytes: [UInt8])] = []
    /// The next connection number.
    private var nextConnection = 1

    /// `count` nodes with empty lists and replica IDs 1...count, sharing `settings`.
    init(count: Int, settings: SyncSettings = .test, seed: UInt64) {
        nodes = (1...count).map {
            SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(UInt64($0))), settings: settings)
        }
        generator = SplitMix64(seed: seed)
    }

    /// Nodes over the given replicas.
    init(replicas: [ReplicatedList<String>], settings: SyncSettings = .test, seed: UInt64) {
        nodes = replicas.map { SyncNode(replica: $0, settings: settings) }
        generator = SplitMix64(seed: seed)
    }

    /// Links node `a` (initiator) to node `b`; nonces are random unless given.
    @discardableResult
    func link(_ a: Int, _ b: Int, nonces: ([UInt8], [UInt8])? = nil) -> Int {
        let aID = ConnectionID(nextConnection)
        let bID = ConnectionID(nextConnection + 1)
        nextConnection += 2
        let nonceA = nonces?.0 ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let nonceB = nonces?.1 ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        nodes[a].open(aID, role: .initiator, nonce: nonceA)
        nodes[b].open(bID, role: .responder, nonce: nonceB)
        pipes.append(Pipe(from: a, fromConnection: aID, to: b, toConnection: bID))
        pipes.append(Pipe(from: b, fromConnection: bID, to: a, toConnection: aID))
        return pipes.count - 2
    }

    /// Closes the link whose first pipe is `index` (both directions, bytes in flight lost).
    func cut(_ index: Int) {
        for pipeIndex in [index, index + 1] where !pipes[pipeIndex].isClosed {
            pipes[pipeIndex].isClosed = true
            nodes[pipes[pipeIndex].from].close(pipes[pipeIndex].fromConnection, because: .shuttingDown)
        }
    }

    /// Moves bytes once: pulls a sender's output or delivers a random prefix of a pipe. False when quiet.
    @discardableResult
    func step() -> Bool {
        let active = pipes.indices.filter { index in
            let pipe = pipes[index]
            return !pipe.isClosed
                && (!pipe.inFlight.isEmpty || nodes[pipe.from].hasOutput(for: pipe.fromConnection))
        }
        guard let index = active.randomElement(using: &generator) else { return false }
        let pipe = pipes[index]
        if nodes[pipe.from].hasOutput(for: pipe.fromConnection)
            && (pipe.inFlight.isEmpty || Bool.random(using: &generator))
        {
            let limit = Int.random(in: 1...4096, using: &generator)
            pipes[index].inFlight += nodes[pipe.from].output(for: pipe.fromConnection, limit: limit)
            return true
        }
        let count = Int.random(in: 1...pipe.inFlight.count, using: &generator)
        deliver(count, on: index)
        return true
    }

    /// Appends `bytes` to what is in flight on pipe `index` (as if its sender had written them).
    func inject(_ bytes: [UInt8], on index: Int) { pipes[index].inFlight += bytes }

    /// Delivers the first `count` bytes in flight on pipe `index`.
    func deliver(_ count: Int, on index: Int) {
        let pipe = pipes[index]
        let chunk = Array(pipe.inFlight.prefix(count))
        pipes[index].inFlight.removeFirst(count)
        deliveries.append((pipe.from, pipe.to, chunk))
        do {
            try nodes[pipe.to].receive(chunk, on: pipe.toConnection)
        } catch {
            errors.append((pipe.to, error))
            let peerIndex = index % 2 == 0 ? index : index - 1
            cut(peerIndex)
        }
    }

    /// Steps until nothing moves; returns the number of steps.
    @discardableResult
    func runUntilQuiet(maximumSteps: Int = 10_000_000) -> Int {
        var steps = 0
        while steps < maximumSteps && step() { steps += 1 }
        return steps
    }

    /// Each node's rows, as values.
    var rows: [[String]] { nodes.map { $0.replica.map(\.value) } }
}

extension SyncSettings {
    /// Settings shared by the tests' peers.
    static let test = SyncSettings(document: "groceries", secret: Array("correct horse battery staple".utf8))
}
