import Foundation
import Synchronization

/// The aggregates finished sessions are folded into: one set for the whole report and one per
/// value of each breakdown label.
struct SessionFolding: Sendable {
    let options: ReportOptions
    private(set) var total: FlowAggregates
    /// label → value → aggregates.
    private(set) var breakdown: [String: [String: FlowAggregates]] = [:]

    init(options: ReportOptions) {
        self.options = options
        self.total = FlowAggregates(options: options)
    }

    /// Folds one finished session in.
    mutating func add(_ record: SessionRecord) {
        total.add(record)
        for label in options.breakdownLabels {
            let value = record.labels[label] ?? "(none)"
            breakdown[label, default: [:]][value, default: FlowAggregates(options: options, isCoreOnly: true)].add(record)
        }
    }
}

/// Folds finished sessions into a ``SessionFolding`` on a thread of its own, in the order they
/// are handed over, so that following events and folding sessions run on different cores.
///
/// `navlog report` reads on one thread and follows sessions on another; folding a session
/// (its paths, screens, funnels and trees) took a fifth of the second one's time. Sessions are
/// handed over in batches, and at most ``depth`` batches wait, so memory stays bounded.
final class BackgroundFolder: Sendable {
    /// Sessions per batch handed to the thread.
    static let batchSize = 128
    /// Batches that may wait for the thread.
    static let depth = 8

    private final class Channel: Sendable {
        struct State {
            var batches: [[SessionRecord]] = []
            var isClosed = false
            var result: SessionFolding?
        }

        let state = Mutex(State())
        /// Batches queued, or the channel closed.
        let ready = DispatchSemaphore(value: 0)
        /// Free places for batches.
        let free = DispatchSemaphore(value: BackgroundFolder.depth)
        /// The thread has folded everything and left its result.
        let finished = DispatchSemaphore(value: 0)
    }

    private let channel = Channel()
    /// Sessions not yet handed over; only the owner's thread touches it.
    private let pending = Mutex<[SessionRecord]>([])

    init(options: ReportOptions) {
        let channel = self.channel
        // The thread holds the channel, not `self`: dropping the folder ends it.
        let thread = Thread {
            var folding = SessionFolding(options: options)
            while true {
                channel.ready.wait()
                let batch = channel.state.withLock { state -> [SessionRecord]? in
                    state.batches.isEmpty ? nil : state.batches.removeFirst()
                }
                guard let batch else { break }
                channel.free.signal()
                for record in batch { folding.add(record) }
            }
            channel.state.withLock { $0.result = folding }
            channel.finished.signal()
        }
        thread.name = "navlog-fold"
        thread.start()
    }

    deinit {
        close()
    }

    /// Queues `record` to be folded after the ones before it.
    func add(_ record: SessionRecord) {
        let batch = pending.withLock { pending -> [SessionRecord]? in
            pending.append(record)
            guard pending.count >= Self.batchSize else { return nil }
            defer { pending = [] }
            return pending
        }
        if let batch { hand(batch) }
    }

    /// Folds what is still queued and returns the aggregates of every session added.
    func finish() -> SessionFolding {
        close()
        channel.finished.wait()
        channel.finished.signal()
        return channel.state.withLock { $0.result! }
    }

    private func hand(_ batch: [SessionRecord]) {
        channel.free.wait()
        channel.state.withLock { $0.batches.append(batch) }
        channel.ready.signal()
    }

    /// Hands over the last sessions and tells the thread to stop once they are folded.
    private func close() {
        let batch = pending.withLock { pending -> [SessionRecord] in
            defer { pending = [] }
            return pending
        }
        let isOpen = channel.state.withLock { state -> Bool in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard isOpen else { return }
        if !batch.isEmpty { hand(batch) }
        channel.ready.signal()
    }
}
