import Foundation

/// The sinks open in this process, closed (so flushed) when it exits normally.
enum ExitFlush {
    private final class WeakSink: @unchecked Sendable {
        weak var sink: RemoteEventSink?
        init(_ sink: RemoteEventSink) { self.sink = sink }
    }

    nonisolated(unsafe) private static var sinks: [ObjectIdentifier: WeakSink] = [:]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var isInstalled = false

    static func register(_ sink: RemoteEventSink) {
        lock.withLock {
            sinks[ObjectIdentifier(sink)] = WeakSink(sink)
            if !isInstalled {
                isInstalled = true
                atexit { ExitFlush.closeAll() }
            }
        }
    }

    static func unregister(_ sink: RemoteEventSink) {
        lock.withLock { sinks[ObjectIdentifier(sink)] = nil }
    }

    private static func closeAll() {
        let open = lock.withLock { sinks.values.compactMap(\.sink) }
        for sink in open { sink.close(timeout: .seconds(2)) }
    }
}
