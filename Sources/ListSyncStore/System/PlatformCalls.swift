#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// C functions whose names collide with methods of the types that wrap them, under names that do not.

/// `open(2)`.
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }

/// `close(2)`.
func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

/// `write(2)`.
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// `rename(2)`.
func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
