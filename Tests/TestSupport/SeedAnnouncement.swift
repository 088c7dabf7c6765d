import Foundation

/// Says which seed a randomized test is about to run, before it runs: `test: seed N (replay: …)` on
/// standard error, which is unbuffered, so a run that traps has already named the seed that replays it.
/// - Parameters:
///   - seed: the seed about to run.
///   - test: the test, as its failure messages name it.
///   - replay: the command that replays this seed alone.
public func announceSeed(_ seed: UInt64, of test: String, replay: String) {
    FileHandle.standardError.write(Data("\(test): seed \(seed) (replay: \(replay))\n".utf8))
}
