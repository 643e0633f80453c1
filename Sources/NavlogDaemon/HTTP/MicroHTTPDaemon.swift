import CMicroHTTPD
import Foundation
import Synchronization

/// The owner of one `MHD_Daemon*`: an HTTP/1.1 server on a socket the caller bound.
///
/// MHD runs its own polling threads (epoll, a pool of ``Settings/threadCount``). Each
/// request's final call goes to `handler` on its connection's thread: a
/// ``HTTPReply/response(_:)`` is queued right there, with no hop to another thread; a
/// ``HTTPReply/deferred(_:)`` reply suspends the connection
/// ([MHD_suspend_connection](https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dflow.html))
/// until its task completes, so no MHD thread ever waits on Swift concurrency.
///
/// `@unchecked Sendable`: `daemon` is written in `init` and in ``close()`` (under `lifecycle`),
/// the live exchanges and the stopping flag are behind the registry shards' locks (the flag is
/// mirrored in an atomic for reads), the rest is immutable.
public final class MicroHTTPDaemon: @unchecked Sendable {
    /// Settings of one server.
    public struct Settings: Sendable {
        /// Largest request body; larger ones are answered with `oversizedResponse`.
        public var maximumBodyBytes: @Sendable () -> Int
        /// A connection idle this long is closed.
        public var connectionTimeoutSeconds: Int
        /// MHD's per-connection memory (headers and buffers; bodies are copied out as they
        /// arrive). MHD zeroes all of it after every request on a kept-alive connection, so
        /// this stays at MHD's own default.
        public var connectionMemoryBytes = 32 * 1024
        public var connectionLimit = 1024
        /// MHD's worker threads. Requests run their sessions on these threads, and MHD keeps
        /// each connection on the thread that accepted it, so twice the cores (up to 8): a
        /// thread that drew more busy connections, or waits on a session's lock or a full
        /// journal queue, leaves the others serving.
        public var threadCount = max(2, min(8, 2 * ProcessInfo.processInfo.activeProcessorCount))

        public init(maximumBodyBytes: @escaping @Sendable () -> Int, connectionTimeoutSeconds: Int) {
            self.maximumBodyBytes = maximumBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
        }
    }

    /// Takes every complete request.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPReply
    /// Hears of each response: the request, the status and the nanoseconds it took.
    public typealias Observer = @Sendable (HTTPRequest, Int, UInt64) -> Void

    let settings: Settings
    let handler: Handler
    let observer: Observer
    let log: Logger
    let listenDescriptor: Int32
    private let lifecycle = Mutex(())
    private var daemon: OpaquePointer?

    private struct Registry {
        var live: [ObjectIdentifier: HTTPExchange] = [:]
        var isStopping = false
    }

    /// One lock's worth of the live exchanges. Every request registers and unregisters
    /// itself, so they are spread over a few locks by address, not queued on one.
    private final class RegistryShard: Sendable {
        let registry = Mutex(Registry())
    }

    private let registries = (0..<8).map { _ in RegistryShard() }
    /// Whether ``close(answeringWith:)`` has begun, readable without a lock: every request
    /// reads it twice. Each shard keeps its own flag, set under its lock, for registering.
    private let stopping = Atomic<Bool>(false)

    private func shard(of exchange: HTTPExchange) -> RegistryShard {
        let address = UInt(bitPattern: Unmanaged.passUnretained(exchange).toOpaque())
        return registries[Int((address >> 6) % UInt(registries.count))]
    }

    /// Starts serving on `listenDescriptor`, a bound, listening socket the server then owns.
    public init(listenDescriptor: Int32, settings: Settings, log: Logger, handler: @escaping Handler, observer: @escaping Observer) throws {
        self.listenDescriptor = listenDescriptor
        self.settings = settings
        self.handler = handler
        self.observer = observer
        self.log = log
        let context = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let arguments: [any CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, listenDescriptor,
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(settings.connectionTimeoutSeconds),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, settings.connectionMemoryBytes,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(settings.connectionLimit),
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(settings.threadCount),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(arguments) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, context, list)
        }
        guard daemon != nil else {
            Glibc.close(listenDescriptor)
            throw MicroHTTPDError(operation: "MHD_start_daemon", detail: "libmicrohttpd refused to start on descriptor \(listenDescriptor)")
        }
    }

    // MARK: - Stopping

    /// Stops accepting connections; requests already accepted continue.
    public func quiesce() {
        lifecycle.withLock { _ in
            if let daemon { _ = MHD_quiesce_daemon(daemon) }
        }
    }

    /// Answers requests still running with `response`, ends streams, and stops the server;
    /// later calls do nothing.
    public func close(answeringWith response: HTTPResponse) {
        stopping.store(true, ordering: .sequentiallyConsistent)
        // Shard by shard, under each lock: an exchange registered before its shard is passed
        // is collected here, one registered after learns that the server stops.
        let live = registries.flatMap { shard in
            shard.registry.withLock { registry in
                registry.isStopping = true
                return Array(registry.live.values)
            }
        }
        for exchange in live { exchange.stop(answeringWith: response) }
        lifecycle.withLock { _ in
            guard let daemon else { return }
            MHD_stop_daemon(daemon)
            self.daemon = nil
            Glibc.close(listenDescriptor)
        }
    }

    deinit {
        if let daemon {
            MHD_stop_daemon(daemon)
            Glibc.close(listenDescriptor)
        }
    }

    /// The requests begun and not yet completed.
    public var liveRequestCount: Int { registries.reduce(0) { $0 + $1.registry.withLock { $0.live.count } } }

    // MARK: - Exchanges

    /// Registers a new exchange; it learns at once if the server is stopping.
    func register(_ exchange: HTTPExchange) -> Bool {
        shard(of: exchange).registry.withLock { registry in
            registry.live[ObjectIdentifier(exchange)] = exchange
            return registry.isStopping
        }
    }

    func unregister(_ exchange: HTTPExchange) {
        _ = shard(of: exchange).registry.withLock { $0.live.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }
}

/// A libmicrohttpd call that failed, with what was attempted.
public struct MicroHTTPDError: Error, CustomStringConvertible {
    public var operation: String
    public var detail: String

    public var description: String { "\(operation) failed: \(detail)" }
}

// MARK: - C callbacks

/// MHD_OPTION_NOTIFY_COMPLETED: releases the exchange MHD held in `con_cls`.
private let requestCompleted: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode
) -> Void = { context, _, slot, _ in
    guard let context, let slot, let pointer = slot.pointee else { return }
    let server = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeRetainedValue()
    slot.pointee = nil
    exchange.markCompleted()
    server.unregister(exchange)
}

