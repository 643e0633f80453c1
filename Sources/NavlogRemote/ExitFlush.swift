import Foundation
import Synchronization

/// The sinks open in this process, closed (so flushed) when it exits normally.
enum ExitFlush {
    /// A sink held weakly: a sink its app let go needs no closing at exit.
    private struct WeakSink {
        weak var sink: RemoteEventSink?
    }

    private struct State {
        var sinks: [ObjectIdentifier: WeakSink] = [:]
        var isInstalled = false
    }

    private static let state = Mutex(State())

    static func register(_ sink: RemoteEventSink) {
        let isFirst = state.withLock { state in
            state.sinks[ObjectIdentifier(sink)] = WeakSink(sink: sink)
            defer { state.isInstalled = true }
            return !state.isInstalled
        }
        if isFirst { atexit { ExitFlush.closeAll() } }
    }

    static func unregister(_ sink: RemoteEventSink) {
        state.withLock { _ = $0.sinks.removeValue(forKey: ObjectIdentifier(sink)) }
    }

    private static func closeAll() {
        let open = state.withLock { $0.sinks.values.compactMap(\.sink) }
        for sink in open { sink.close(timeout: .seconds(2)) }
    }
}
