import Dispatch
import Foundation

/// Turns SIGTERM, SIGINT and SIGHUP into an async sequence, instead of the default actions.
public final class SignalWatcher {
    /// What a signal asks of the daemon.
    public enum Request: Sendable, Equatable {
        case shutdown(signal: String)
        case reload
    }

    public let requests: AsyncStream<Request>
    private let sources: [any DispatchSourceSignal]

    /// Starts watching; SIGPIPE is ignored too (writes to gone clients fail instead).
    public init() {
        let (stream, continuation) = AsyncStream<Request>.makeStream()
        requests = stream
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "navlogd.signals")
        var sources: [any DispatchSourceSignal] = []
        for (number, request) in [(SIGTERM, Request.shutdown(signal: "SIGTERM")), (SIGINT, .shutdown(signal: "SIGINT")), (SIGHUP, .reload)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(request) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
