import Foundation

/// Wall-clock timing, resident memory and JSON output shared by the benchmarks.
enum Measurement {
    /// Median, minimum and maximum of several timed runs, in seconds.
    struct Timing {
        var median: Double
        var min: Double
        var max: Double

        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            median =
                sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            min = sorted.first ?? 0
            max = sorted.last ?? 0
        }
    }

    /// Seconds taken by `body`, and its result.
    static func seconds<Result>(_ body: () throws -> Result) rethrows -> (Double, Result) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
    }

    /// Runs `body` `count` times; reports progress on standard error for runs over a second.
    static func repeated(_ label: String, count: Int, _ body: (Int) throws -> Double) rethrows -> Timing {
        var samples: [Double] = []
        for run in 0..<count {
            let elapsed = try body(run)
            samples.append(elapsed)
            if elapsed > 1 { progress("\(label) run \(run + 1)/\(count): \(String(format: "%.3f", elapsed)) s") }
        }
        return Timing(samples)
    }

    /// Returns freed heap memory to the system (glibc's `malloc_trim`), so that a following resident
    /// memory reading counts live data only and a later delta is not hidden by reused free pages.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// Resident memory of this process in bytes (0 where unknown).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Writes a line to standard error.
    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("listsync-bench: \(message)\n".utf8))
    }
}

/// A JSON object built field by field, in insertion order.
struct JSONObject: CustomStringConvertible {
    private var fields: [(String, String)] = []

    /// Sets `key` to a string.
    subscript(key: String) -> String? {
        get { nil }
        set { if let newValue { fields.append((key, "\"\(newValue)\"")) } }
    }

    /// Sets `key` to a number or Boolean, written as JSON.
    mutating func set(_ key: String, _ value: some CustomStringConvertible) {
        fields.append((key, "\(value)"))
    }

    /// Sets `key`, `key_min` and `key_max` from a timing.
    mutating func set(_ key: String, _ timing: Measurement.Timing) {
        set(key, timing.median)
        set(key + "_min", timing.min)
        set(key + "_max", timing.max)
    }

    /// The value of `key` as written.
    func value(_ key: String) -> String? { fields.first { $0.0 == key }?.1 }

    /// `{"key":value,...}` on one line.
    var description: String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
