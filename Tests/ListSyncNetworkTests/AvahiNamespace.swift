#if os(Linux)
    import Foundation
    import Glibc
    import ListSync

    @testable import ListSyncNetwork

    /// Two network namespaces joined by a veth pair, a private D-Bus system bus and an avahi-daemon in
    /// the first namespace, for ``MDNSInteropTests``. Needs root and iproute2, dbus and avahi; every
    /// command it runs has a timeout, and ``tearDown()`` ends the daemons by their PIDs and deletes the
    /// namespaces even when setting up failed half-way.
    final class AvahiNamespace {
        /// The commands the test needs on the PATH.
        static let tools = ["ip", "dbus-daemon", "avahi-daemon", "avahi-browse", "avahi-publish"]
        /// Why the interop test cannot run here, or nil when it can.
        static let missingRequirement: String? = {
            if getuid() != 0 { return "not root: the namespace test needs ip netns" }
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
            let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
            for tool in tools
            where !directories.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }) {
                return "\(tool) not installed (apt-get install -y iproute2 dbus avahi-daemon avahi-utils)"
            }
            return nil
        }()

        /// The namespace of avahi-daemon (10.77.0.1 on `lsavahi0`).
        let avahiSide: String
        /// The namespace of our peer (10.77.0.2 on `lspeer0`).
        let peerSide: String
        /// A directory for the bus socket and the configuration files.
        let directory: URL
        /// The address of the private bus, for `DBUS_SYSTEM_BUS_ADDRESS`.
        let busAddress: String
        /// The daemons and background commands started, the latest last, ended by ``tearDown()``.
        private(set) var processes: [pid_t] = []

        /// Namespaces made by this process so far, numbering the next.
        private static let made = Locked(0)

        /// Names the namespaces after this process and a count, so that parallel runs and tests do not meet.
        init() {
            let count = Self.made.withLock { made in
                made += 1
                return made
            }
            let id = "\(getpid())n\(count)"
            avahiSide = "lsavahi\(id)"
            peerSide = "lspeer\(id)"
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("listsync-mdns-\(id)")
            busAddress = "unix:path=\(directory.path)/bus"
        }

        /// Makes the namespaces and the link, and starts the bus and avahi-daemon unless `avahi` is false
        /// (two avahi-daemons share `/run/avahi-daemon`: only ``MDNSInteropTests``, serialized, starts them).
        func setUp(avahi startsAvahi: Bool = true) throws {
            removeLeftovers()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try run(["ip", "netns", "add", avahiSide])
            try run(["ip", "netns", "add", peerSide])
            try run([
                "ip", "link", "add", "lsavahi0", "netns", avahiSide, "type", "veth", "peer", "lspeer0", "netns",
                peerSide,
            ])
            for (side, link, address) in [
                (avahiSide, "lsavahi0", "10.77.0.1/24"), (peerSide, "lspeer0", "10.77.0.2/24"),
            ] {
                try run(["ip", "-n", side, "addr", "add", address, "dev", link])
                try run(["ip", "-n", side, "link", "set", link, "multicast", "on", "up"])
                try run(["ip", "-n", side, "link", "set", "lo", "up"])
            }
            // A veth end is running (carrier) a moment after both ends are up; mDNS skips it until then.
            for (side, link) in [(avahiSide, "lsavahi0"), (peerSide, "lspeer0")] {
                try waitFor("\(link) running") {
                    (try? self.run(["ip", "-n", side, "link", "show", link]))?.contains("state UP") == true
                }
            }
            guard startsAvahi else { return }
            let bus = directory.appendingPathComponent("bus.conf")
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
              "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>\(busAddress)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
              </policy>
            </busconfig>
            """.write(to: bus, atomically: true, encoding: .utf8)
            try start(["dbus-daemon", "--config-file=\(bus.path)", "--nofork", "--nopidfile"])
            try waitFor("the bus socket") { FileManager.default.fileExists(atPath: "\(self.directory.path)/bus") }
            let avahi = directory.appendingPathComponent("avahi-daemon.conf")
            try """
            [server]
            host-name=avahins1
            use-ipv4=yes
            use-ipv6=no
            allow-interfaces=lsavahi0
            enable-dbus=yes
            [publish]
            publish-hinfo=no
            publish-workstation=no
            """.write(to: avahi, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: "/run/avahi-daemon", withIntermediateDirectories: true)
            try start([
                "ip", "netns", "exec", avahiSide, "avahi-daemon", "--no-drop-root", "--no-chroot", "--no-rlimits", "-f",
                avahi.path,
            ])
            try waitFor("avahi-daemon on the bus") { (try? self.run(["avahi-browse", "-at"])) != nil }
        }

        /// Removes what a test process killed before its ``tearDown()`` left behind, found by the process ID
        /// in the names: namespaces named after a process that no longer runs, with every process still
        /// inside them (such an avahi-daemon keeps `/run/avahi-daemon` and the next one does not start),
        /// the private buses started for them and their directories.
        func removeLeftovers() {
            /// Whether `name` is `prefix` and the ID of another process that no longer runs.
            func ownerIsGone(_ name: String, prefix: String) -> Bool {
                guard name.hasPrefix(prefix), let owner = pid_t(name.dropFirst(prefix.count).prefix { $0.isNumber }),
                    owner != getpid()
                else { return false }
                return kill(owner, 0) != 0 && errno != EPERM
            }
            let namespaces = (try? run(["ip", "netns", "list"])) ?? ""
            for line in namespaces.split(separator: "\n") {
                let name = String(line.prefix { $0 != " " })
                guard ["lsavahi", "lspeer"].contains(where: { ownerIsGone(name, prefix: $0) }) else {
                    continue
                }
                let inside = (try? run(["ip", "netns", "pids", name])) ?? ""
                for process in inside.split(separator: "\n").compactMap({ pid_t($0) }) { kill(process, SIGKILL) }
                _ = try? run(["ip", "netns", "del", name])
            }
            let prefix = "listsync-mdns-"
            let temporary = FileManager.default.temporaryDirectory
            let stale = ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).filter {
                ownerIsGone($0, prefix: prefix)
            }
            guard !stale.isEmpty else { return }
            // A bus's daemon runs outside the namespaces: it is found by its configuration file's directory.
            let running = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for process in running.compactMap({ pid_t($0) }) {
                guard let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(process)/cmdline")) else {
                    continue
                }
                let text = String(decoding: commandLine, as: UTF8.self)
                if stale.contains(where: { text.contains(temporary.appendingPathComponent($0).path + "/") }) {
                    kill(process, SIGKILL)
                }
            }
            for name in stale { try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name)) }
        }

        /// Ends every process started, by its PID, and deletes the namespaces and the directory.
        func tearDown() {
            for process in processes.reversed() { end(process) }
            processes = []
            for side in [avahiSide, peerSide] { _ = try? run(["ip", "netns", "del", side]) }
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs `arguments` to completion within `timeout` seconds; returns its standard output.
        /// - Throws: ``Failure`` when it exits non-zero or runs out of time (it is killed).
        @discardableResult
        func run(_ arguments: [String], timeout: TimeInterval = 10) throws -> String {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw Failure(command: arguments, reason: "pipe: errno \(errno)") }
            let child = try spawn(arguments, output: ends[1])
            close(ends[1])
            defer { close(ends[0]) }
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let deadline = Date().addingTimeInterval(timeout)
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            var status: Int32 = 0
            while true {
                let count = read(ends[0], &chunk, chunk.count)
                if count > 0 { bytes += chunk[..<count] }
                if count <= 0, waitpid(child, &status, WNOHANG) == child { break }
                guard Date() < deadline else {
                    kill(child, SIGKILL)
                    waitpid(child, &status, 0)
                    throw Failure(command: arguments, reason: "did not finish in \(timeout) s")
                }
                if count <= 0 { usleep(10_000) }
            }
            while case let count = read(ends[0], &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
            let text = String(decoding: bytes, as: UTF8.self)
            // WIFEXITED and WEXITSTATUS, which Swift does not import.
            guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
                throw Failure(command: arguments, reason: "wait status \(status): \(text)")
            }
            return text
        }

        /// Starts `arguments` in the background; ``tearDown()`` ends it.
        func start(_ arguments: [String]) throws {
            let null = open("/dev/null", O_WRONLY)
            defer { close(null) }
            processes.append(try spawn(arguments, output: null))
        }

        /// Ends the process started last (SIGTERM, at most 3 s, then SIGKILL).
        func stopLast() {
            guard let process = processes.popLast() else { return }
            end(process)
        }

        /// Runs `body` on a thread of its own inside the peer's namespace (setns changes only the calling
        /// thread): sockets opened there stay in that namespace.
        func inPeerNamespace<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) throws -> Result {
            let descriptor = open("/run/netns/\(peerSide)", O_RDONLY)
            guard descriptor >= 0 else {
                throw Failure(command: ["open /run/netns/\(peerSide)"], reason: "errno \(errno)")
            }
            defer { close(descriptor) }
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
                throw Failure(command: ["dlsym(setns)"], reason: "not found")
            }
            typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
            let setNamespace = unsafeBitCast(symbol, to: SetNamespace.self)
            let result = Locked<Swift.Result<Result, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let cloneNewNet: Int32 = 0x4000_0000
                if setNamespace(descriptor, cloneNewNet) != 0 {
                    result.withLock { $0 = .failure(Failure(command: ["setns"], reason: "errno \(errno)")) }
                } else {
                    let outcome = Swift.Result { try body() }
                    result.withLock { $0 = outcome }
                }
                done.signal()
            }
            thread.start()
            guard done.wait(timeout: .now() + 10) == .success, let outcome = result.withLock({ $0 }) else {
                throw Failure(command: ["setns thread"], reason: "did not finish in 10 s")
            }
            return try outcome.get()
        }

        /// Polls `condition` every 100 ms for at most `timeout` seconds.
        func waitFor(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else { throw Failure(command: [what], reason: "not within \(timeout) s") }
                usleep(100_000)
            }
        }

        /// Ends `process` by its PID: SIGTERM, at most 3 s, then SIGKILL; reaps it.
        private func end(_ process: pid_t) {
            var status: Int32 = 0
            kill(process, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while waitpid(process, &status, WNOHANG) == 0 {
                guard Date() < deadline else {
                    kill(process, SIGKILL)
                    waitpid(process, &status, 0)
                    return
                }
                usleep(20_000)
            }
        }

        /// Spawns `arguments` (found on the PATH) with its standard output on `output`, standard error
        /// discarded, no signal blocked and the private bus in its environment. (Not Foundation's
        /// `Process`: avahi-daemon closes every inherited descriptor, which `Process` takes for its exit
        /// and then waits for it, blocking the monitoring of every other process.)
        private func spawn(_ arguments: [String], output: Int32) throws -> pid_t {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = busAddress
            environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            var child: pid_t = 0
            let status = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
            guard status == 0 else { throw Failure(command: arguments, reason: "posix_spawnp: error \(status)") }
            return child
        }

        /// A command that failed.
        struct Failure: Error, CustomStringConvertible {
            /// The command.
            var command: [String]
            /// What went wrong.
            var reason: String
            /// `command: reason`.
            var description: String { "\(command.joined(separator: " ")): \(reason)" }
        }
    }
#endif
