// What ListSync's network module takes from Foundation, as Apple's Foundation declares it, for
// .ci/darwin-check only (which renames `import Foundation` to this module): Linux's Foundation would
// bring Glibc's declarations along and hide wrong Darwin calls. Apple's Foundation re-exports Darwin.
@_exported import Darwin

/// `Foundation.Thread`.
open class Thread {
    /// Starts a thread running `block`.
    open class func detachNewThread(_ block: @escaping @Sendable () -> Void) { fatalError("darwin-check shim") }
}

/// `Foundation.Date`.
public struct Date: Sendable {
    /// The current date and time.
    public init() { fatalError("darwin-check shim") }
    /// Seconds since 00:00:00 UTC on 1 January 1970.
    public var timeIntervalSince1970: Double { fatalError("darwin-check shim") }
}
