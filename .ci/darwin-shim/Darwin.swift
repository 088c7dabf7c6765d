// swift-format-ignore-file: AlwaysUseLowerCamelCase
// The Swift side of Apple's Darwin module that ListSync's Darwin branches use, with the signatures of
// the real overlay (swift/stdlib/public/Platform: Platform.swift, POSIXError.swift): `errno`, the
// non-variadic `open` and `fcntl`, and the file-type constants as `mode_t`. For .ci/darwin-check only:
// nothing here runs, so the bodies only need to type-check.
@_exported import CDarwinShim

/// `errno` of the calling thread.
public var errno: Int32 {
    get { __error().pointee }
    set { __error().pointee = newValue }
}

/// `open(2)` without a mode.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError("darwin-check shim") }

/// `open(2)` with a mode.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
    fatalError("darwin-check shim")
}

/// `fcntl(2)` without an argument.
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError("darwin-check shim") }

/// `fcntl(2)` with an integer argument.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError("darwin-check shim") }

/// `fcntl(2)` with a pointer argument.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 {
    fatalError("darwin-check shim")
}

/// File type mask of `st_mode`.
public var S_IFMT: mode_t { mode_t(0o170000) }
/// Named pipe.
public var S_IFIFO: mode_t { mode_t(0o010000) }
/// Character device.
public var S_IFCHR: mode_t { mode_t(0o020000) }
/// Directory.
public var S_IFDIR: mode_t { mode_t(0o040000) }
/// Block device.
public var S_IFBLK: mode_t { mode_t(0o060000) }
/// Regular file.
public var S_IFREG: mode_t { mode_t(0o100000) }
/// Symbolic link.
public var S_IFLNK: mode_t { mode_t(0o120000) }
/// Socket.
public var S_IFSOCK: mode_t { mode_t(0o140000) }
