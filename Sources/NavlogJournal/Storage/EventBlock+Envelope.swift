/// The envelope columns at the front of a block: what a reader that wants neither payloads nor
/// subjects, screens and parents needs, decoded from as few inflated bytes as hold them.
///
/// The columns come before the payloads in the block layout (``EventBlock``), and a block's
/// columns take about a seventh of its inflated bytes, so such a reader (the SQL extension
/// counting kinds, say) inflates only that front part.
extension EventBlock {
    /// How far into the columns a reader goes.
    enum EnvelopeDepth: Sendable {
        /// Seq, wall and monotonic time, session and kind.
        case kinds
        /// Those, session seq and cause too.
        case causes

        /// Inflated bytes per event to start with: the front part, with room to spare, on the
        /// bench's journals (about 10 and 15 bytes an event).
        var bytesPerEventGuess: Int { self == .kinds ? 12 : 18 }
    }

    /// A block's envelope columns, one array each; `sessionSeq` and `cause` are empty unless
    /// read to ``EnvelopeDepth/causes``.
    struct Envelope {
        var seq: [UInt64] = []
        var wall: [Int64] = []
        var monotonic: [UInt64] = []
        var session: [Int64] = []
        var kind: [Int64] = []
        var sessionSeq: [UInt64] = []
        var cause: [UInt64?] = []

        var count: Int { seq.count }
    }

    /// Inflates the front of the block deflated in `compressed` (`rawBytes` once inflated) until
    /// it holds the envelope columns to `depth`, starting with `firstGuess` bytes and doubling;
    /// returns them.
    static func inflateEnvelope(_ compressed: [UInt8], rawBytes: Int, through depth: EnvelopeDepth, inflater: Inflater,
                                firstGuess: Int, context: String) throws -> Envelope {
        var raw: [UInt8] = []
        var wanted = max(1, firstGuess)
        while true {
            try inflater.decompressPrefix(compressed, expectedCount: rawBytes, atLeast: wanted, into: &raw, context: context)
            if let envelope = try decodeEnvelope(raw, isComplete: raw.count == rawBytes, through: depth) { return envelope }
            wanted = raw.count * 2
        }
    }

    /// Reads a block's format version, refusing one this navlog cannot read by name.
    static func readVersion(_ reader: inout ByteReader) throws -> UInt8 {
        let version = try reader.readByte()
        guard readableVersions.contains(version) else {
            throw ByteReaderError(offset: 0, reason: version > Self.version
                ? "block format \(version) is newer than the \(Self.version) this navlog reads; upgrade navlog"
                : "unknown block format \(version)")
        }
        return version
    }

    /// Reads the first columns of a block of `count` events, after its version and count: seq,
    /// wall and monotonic time, session and kind.
    static func readFront(_ reader: inout ByteReader, count: Int) throws -> Envelope {
        var envelope = Envelope()
        envelope.seq.reserveCapacity(count)
        var seq = try reader.readVarint()
        for _ in 0..<count {
            seq &+= try reader.readVarint()
            envelope.seq.append(seq)
        }
        envelope.wall.reserveCapacity(count)
        var wall: Int64 = 0
        for _ in 0..<count {
            wall &+= try reader.readSigned()
            envelope.wall.append(wall)
        }
        envelope.monotonic.reserveCapacity(count)
        var mono: UInt64 = 0
        var previousWall: Int64 = 0
        for index in 0..<count {
            let wallStep = envelope.wall[index] &- previousWall
            mono &+= UInt64(bitPattern: try reader.readSigned() &+ wallStep)
            envelope.monotonic.append(mono)
            previousWall = envelope.wall[index]
        }
        envelope.session.reserveCapacity(count)
        for _ in 0..<count { envelope.session.append(Int64(bitPattern: try reader.readVarint())) }
        envelope.kind.reserveCapacity(count)
        for _ in 0..<count { envelope.kind.append(Int64(bitPattern: try reader.readVarint())) }
        return envelope
    }

    /// Decodes the envelope columns of the block whose inflated bytes begin with `bytes`, to
    /// `depth`; returns nil when `bytes` end before those columns do and more of the block is
    /// still to be inflated (`isComplete` false). It checks their layout, as far as it reads.
    static func decodeEnvelope(_ bytes: [UInt8], isComplete: Bool, through depth: EnvelopeDepth) throws -> Envelope? {
        var reader = ByteReader(bytes)
        do {
            _ = try readVersion(&reader)
            let rawCount = try reader.readVarint()
            // Every event takes at least one byte in each of the columns read below.
            guard rawCount <= 1 << 24 else { throw ByteReaderError(offset: 1, reason: "implausible event count \(rawCount)") }
            let count = Int(rawCount)
            var envelope = try readFront(&reader, count: count)
            guard depth == .causes else { return envelope }
            envelope.sessionSeq.reserveCapacity(count)
            var lastSessionSeq = SessionSeqTable(capacity: count)
            for index in 0..<count {
                envelope.sessionSeq.append(try lastSessionSeq.advance(envelope.session[index]) { $0 &+ UInt64(bitPattern: try reader.readSigned()) })
            }
            // Subjects, screens and parents: skipped, their codes read only to pass them.
            for _ in 0..<(3 * count) { _ = try reader.readVarint() }
            envelope.cause.reserveCapacity(count)
            for index in 0..<count {
                let raw = try reader.readVarint()
                envelope.cause.append(raw > 0 ? envelope.sessionSeq[index] &- UInt64(bitPattern: unzigzag(raw - 1)) : nil)
            }
            return envelope
        } catch let error as ByteReaderError where error.isUnexpectedEnd && !isComplete {
            return nil
        }
    }
}
