import Foundation
import NavlogEvents

// MARK: - Follow mode

extension JournalReader {
    /// Returns a stream of the matching events already committed, then of new ones as any
    /// process commits them, until the consuming task is cancelled.
    ///
    /// Between reads it polls every `pollInterval`: `PRAGMA data_version` of the newest file
    /// and the directory listing for new files. It never spins. An error (a damaged file)
    /// ends the stream with that error.
    public func follow(matching filter: EventFilter = EventFilter(),
                       pollInterval: Duration = .milliseconds(100)) -> AsyncThrowingStream<Event, any Error> {
        let sources = paths.map(JournalSource.init(path:))
        return AsyncThrowingStream { continuation in
            let task = Task.detached {
                var iterator = JournalEventIterator(sources: sources, filter: filter)
                iterator.waitsForNewestFile = true
                do {
                    while !Task.isCancelled {
                        while let event = try iterator.next() {
                            if case .terminated = continuation.yield(event) { return }
                        }
                        repeat {
                            try await Task.sleep(for: pollInterval)
                        } while !iterator.refresh()
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
