import NavlogEvents

/// The envelope columns of some events of one block, one array each, with sessions and kinds
/// as the file's row ids (``BorrowedJournal/session(id:)``, ``BorrowedJournal/kind(id:)``):
/// what the SQL extension reads for a query that uses no subject, screen, parent or payload.
package struct BlockEnvelope {
    package private(set) var seq: [UInt64]
    package private(set) var wall: [Int64]
    package private(set) var monotonic: [UInt64]
    package private(set) var session: [Int64]
    package private(set) var kind: [Int64]
    /// Empty unless read with causes.
    package private(set) var sessionSeq: [UInt64]
    /// Empty unless read with causes.
    package private(set) var cause: [UInt64?]

    package var count: Int { seq.count }

    package init() {
        self.init(EventBlock.Envelope())
    }

    init(_ envelope: EventBlock.Envelope) {
        seq = envelope.seq
        wall = envelope.wall
        monotonic = envelope.monotonic
        session = envelope.session
        kind = envelope.kind
        sessionSeq = envelope.sessionSeq
        cause = envelope.cause
    }

    /// The events of `envelope` at `indices`, in their order.
    init(_ envelope: EventBlock.Envelope, keeping indices: [Int]) {
        seq = indices.map { envelope.seq[$0] }
        wall = indices.map { envelope.wall[$0] }
        monotonic = indices.map { envelope.monotonic[$0] }
        session = indices.map { envelope.session[$0] }
        kind = indices.map { envelope.kind[$0] }
        sessionSeq = envelope.sessionSeq.isEmpty ? [] : indices.map { envelope.sessionSeq[$0] }
        cause = envelope.cause.isEmpty ? [] : indices.map { envelope.cause[$0] }
    }
}
