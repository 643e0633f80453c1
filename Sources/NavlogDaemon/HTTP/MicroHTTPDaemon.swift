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
/// Stopping has two steps: ``beginDraining()`` keeps serving but closes every connection after
/// its answer; ``close(answeringWith:within:)`` stops accepting, answers what still runs, gives
/// those answers a moment to leave, and stops MHD.
///
/// `@unchecked Sendable`: `daemon` and `checker` are written in `init` and under `lifecycle`,
/// the live exchanges and the stopping flag are behind the registry shards' locks (the flag is
/// mirrored in an atomic for reads), the connections behind their own lock, the rest is immutable.
public final class MicroHTTPDaemon: @unchecked Sendable {
    /// Settings of one server.
    public struct Settings: Sendable {
        /// Largest request body; larger ones are answered 413.
        public var maximumBodyBytes: @Sendable () -> Int
        /// How long a connection has to deliver each complete request, counted from when it
        /// opened or its previous answer was sent; a connection idle this long is closed too.
        public var requestTimeoutSeconds: Int
        /// MHD's per-connection memory (headers and buffers; bodies are copied out as they
        /// arrive). MHD zeroes all of it after every request on a kept-alive connection, so
        /// this stays at MHD's own default. A request line or header section that does not fit
        /// is refused by MHD itself (414, 431).
        public var connectionMemoryBytes = 32 * 1024
        public var connectionLimit = 1024
        /// MHD's worker threads. Requests run their sessions on these threads, and MHD keeps
        /// each connection on the thread that accepted it, so twice the cores (up to 8): a
        /// thread that drew more busy connections, or waits on a session's lock or a full
        /// journal queue, leaves the others serving.
        public var threadCount = max(2, min(8, 2 * ProcessInfo.processInfo.activeProcessorCount))

        public init(maximumBodyBytes: @escaping @Sendable () -> Int, requestTimeoutSeconds: Int) {
            self.maximumBodyBytes = maximumBodyBytes
            self.requestTimeoutSeconds = requestTimeoutSeconds
        }

        /// ``requestTimeoutSeconds`` in nanoseconds.
        var requestTimeoutNanoseconds: UInt64 { UInt64(requestTimeoutSeconds) * 1_000_000_000 }
    }

    /// Takes every complete request; it may note what it learnt (``HTTPRequest/route``), which
    /// the observer then sees.
    public typealias Handler = @Sendable (inout HTTPRequest) -> HTTPReply
    /// Hears of each response: the request, the status and the nanoseconds it took.
    public typealias Observer = @Sendable (HTTPRequest, Int, UInt64) -> Void

    let settings: Settings
    let handler: Handler
    let observer: Observer
    let log: Logger
    let listenDescriptor: Int32
    private let lifecycle = Mutex(())
    private var daemon: OpaquePointer?
    /// Shuts down the connections past their request deadline, a few times a second.
    private var checker: (any DispatchSourceTimer)?

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
    /// Whether ``close(answeringWith:within:)`` has begun, readable without a lock: every
    /// request reads it twice. Each shard keeps its own flag, set under its lock, for registering.
    private let stopping = Atomic<Bool>(false)
    /// Signalled when the last live exchange completes once the server is stopping.
    private let lastExchangeCompleted = CompletionSignal()
    /// Whether every answer closes its connection (``beginDraining()``).
    private let draining = Atomic<Bool>(false)
    /// The open connections; they come and go far less often than requests, so one lock.
    let connections = Mutex<[ObjectIdentifier: HTTPConnectionContext]>([:])

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
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(settings.requestTimeoutSeconds),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, settings.connectionMemoryBytes,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(settings.connectionLimit),
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(settings.threadCount),
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(requestLineArrived, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, unsafeBitCast(connectionChanged, to: OpaquePointer.self), OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(arguments) { list in
            MHD_start_daemon_va(flags, 0, acceptPolicy, context, accessHandler, context, list)
        }
        guard daemon != nil else {
            Glibc.close(listenDescriptor)
            throw MicroHTTPDError(operation: "MHD_start_daemon", detail: "libmicrohttpd refused to start on descriptor \(listenDescriptor)")
        }
        checker = startDeadlineChecker()
    }

    // MARK: - Stopping

    /// From now on every answer closes its connection (`Connection: close`), so clients go
    /// elsewhere; the listener stays open and requests are still answered.
    public func beginDraining() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    /// Stops accepting connections, answers requests still running with `response` (their
    /// work is cancelled), ends streams, waits up to `grace` for those answers to be sent, and
    /// stops the server. Later calls do nothing.
    public func close(answeringWith response: HTTPResponse, within grace: Duration) async {
        // From now on ``acceptPolicy`` closes each new connection as it comes. Not
        // MHD_quiesce_daemon: with epoll it races the worker threads, which may take the
        // listening socket out of their epoll sets first, and then aborts the process
        // ("Failed to remove listen FD from epoll set", an open defect of libmicrohttpd).
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Shard by shard, under each lock: an exchange registered before its shard is passed
        // is collected here, one registered after learns that the server stops.
        let live = registries.flatMap { shard in
            shard.registry.withLock { registry in
                registry.isStopping = true
                return Array(registry.live.values)
            }
        }
        for exchange in live { exchange.stop(answeringWith: response) }
        // Every answer now closes its connection, so what is live only ever shrinks; the last
        // exchange to complete signals (``unregister(_:)``).
        if liveRequestCount > 0 { _ = await lastExchangeCompleted.wait(until: .now + grace) }
        shutDown()
    }

    /// Stops the server at once: connections are closed, answered or not.
    public func close() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        shutDown()
    }

    private func shutDown() {
        lifecycle.withLock { _ in
            checker?.cancel()
            checker = nil
            guard let daemon else { return }
            // It closes the listening socket too, the daemon never having been quiesced:
            // closing it here again could close a descriptor another thread just opened.
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }
    }

    deinit {
        checker?.cancel()
        if let daemon { MHD_stop_daemon(daemon) }
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

    /// Forgets a completed exchange; once the server is stopping, the last one signals.
    /// Removed, then the flag read: ``close(answeringWith:within:)`` sets the flag, then counts,
    /// so either it counts without this exchange or this sees the flag.
    func unregister(_ exchange: HTTPExchange) {
        _ = shard(of: exchange).registry.withLock { $0.live.removeValue(forKey: ObjectIdentifier(exchange)) }
        if isStopping, liveRequestCount == 0 { lastExchangeCompleted.signal() }
    }

    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Whether answers close their connection now.
    var isDraining: Bool { draining.load(ordering: .relaxed) || isStopping }
}

/// A libmicrohttpd call that failed, with what was attempted.
public struct MicroHTTPDError: Error, CustomStringConvertible {
    public var operation: String
    public var detail: String

    public var description: String { "\(operation) failed: \(detail)" }
}

// MARK: - C callbacks

/// The accept policy: once the server is stopping, each new connection is closed as it comes.
private let acceptPolicy: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sockaddr>?, socklen_t) -> MHD_Result = {
    context, _, _ in
    guard let context else { return .YES }
    return Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue().isStopping ? .NO : .YES
}

/// MHD_OPTION_URI_LOG_CALLBACK: the request line is in (the headers not yet). Creates the
/// exchange with the target as sent, before MHD decodes it; MHD hands it to the access handler
/// in `con_cls`, and ``requestCompleted`` releases it.
private let requestLineArrived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    _, target, connection in
    guard let connection else { return nil }
    let exchange = HTTPExchange(connection: connection, target: target.map { String(cString: $0) } ?? "")
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// MHD_OPTION_NOTIFY_COMPLETED: releases the exchange MHD held in `con_cls`, and starts the
/// connection's wait for its next request.
private let requestCompleted: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode
) -> Void = { context, connection, slot, _ in
    guard let context else { return }
    let server = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    if let connection, let connectionContext = MicroHTTPDaemon.context(of: connection) {
        connectionContext.awaitRequest(by: HTTPExchange.monotonicNow() + server.settings.requestTimeoutNanoseconds)
    }
    guard let slot, let pointer = slot.pointee else { return }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeRetainedValue()
    slot.pointee = nil
    exchange.markCompleted()
    server.unregister(exchange)
}

/// MHD_OPTION_NOTIFY_CONNECTION: a connection opened (its first request is awaited) or closed
/// (before MHD closes its socket, so the deadline checker never touches a reused descriptor).
private let connectionChanged: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_ConnectionNotificationCode
) -> Void = { context, connection, slot, code in
    guard let context, let connection, let slot else { return }
    let server = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let connectionContext = HTTPConnectionContext(
            descriptor: navlog_mhd_connection_descriptor(connection),
            deadline: HTTPExchange.monotonicNow() + server.settings.requestTimeoutNanoseconds
        )
        server.connections.withLock { $0[ObjectIdentifier(connectionContext)] = connectionContext }
        slot.pointee = Unmanaged.passRetained(connectionContext).toOpaque()
    default:
        guard let pointer = slot.pointee else { return }
        let connectionContext = Unmanaged<HTTPConnectionContext>.fromOpaque(pointer).takeRetainedValue()
        slot.pointee = nil
        _ = server.connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connectionContext)) }
    }
}
