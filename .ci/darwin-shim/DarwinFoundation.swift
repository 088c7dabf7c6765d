// What ListSync's network module takes from Foundation, as Apple's Foundation declares it, for
// .ci/darwin-check only (which renames `import Foundation` to this module): Linux's Foundation would
// bring Glibc's declarations along and hide wrong Darwin calls. Apple's Foundation re-exports Darwin.
@_exported import Darwin

/// `Foundation.Thread`.
open class Thread {
    /// Starts a thread running `block`.
    open class func detachNewThread(_ block: @escaping @Sendable () -> Void) { fatalError("darwin-check shim") }
}
