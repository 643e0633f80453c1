/// One row of a journal file's `block` table, read and checked for plausible values: what
/// ``JournalFileReader/readBlock(_:in:inflater:values:row:near:plan:)`` and
/// ``JournalFileReader/readEnvelope(_:in:through:inflater:row:near:)`` inflate.
struct StoredBlock {
    let id: Int64
    let path: String
    let first: UInt64
    let last: UInt64
    let count: Int
    let rawBytes: Int
    let checksum: UInt32
    let data: [UInt8]

    /// Reads block `id`'s row with `row` (a statement ``JournalFileReader/prepareBlockRow(in:)``
    /// made, reset before this returns so no read stays open) or a new statement; `seq` names
    /// the block in the error when its row is missing.
    init(_ id: Int64, in file: JournalFile, row: SQLiteStatement?, near seq: UInt64) throws {
        self.id = id
        path = file.path
        let statement: SQLiteStatement
        defer { row?.reset() }
        do {
            statement = try row ?? JournalFileReader.prepareBlockRow(in: file)
            try statement.bind([.integer(id)])
            guard try statement.step() else {
                throw JournalError.damagedBlock(path: path, firstSeq: seq, lastSeq: seq, reason: "block \(id) is missing")
            }
        } catch let error as SQLiteError {
            throw JournalError.damagedBlock(path: path, firstSeq: seq, lastSeq: seq, reason: "block \(id): \(error.message)")
        }
        // Columns of a damaged file may hold anything: refuse negative values instead of trapping.
        guard (0..<4).allSatisfy({ statement.int64(at: $0) >= 0 }) else {
            throw JournalError.damagedBlock(path: path, firstSeq: seq, lastSeq: seq, reason: "block \(id) has a negative seq, count or size")
        }
        first = UInt64(statement.int64(at: 0))
        last = UInt64(statement.int64(at: 1))
        count = Int(statement.int64(at: 2))
        rawBytes = Int(statement.int64(at: 3))
        checksum = UInt32(truncatingIfNeeded: statement.int64(at: 4))
        data = statement.blob(at: 5)
        guard rawBytes < 1 << 30 else { throw damaged("implausible size \(rawBytes)") }
    }

    /// The error for this block, damaged as `reason` says.
    func damaged(_ reason: String) -> JournalError {
        .damagedBlock(path: path, firstSeq: first, lastSeq: last, reason: "block \(id): \(reason)")
    }

    /// Checks what the block decoded to against its row.
    func check(count decoded: Int, first decodedFirst: UInt64?, last decodedLast: UInt64?) throws {
        guard decoded == count, decodedFirst == first, decodedLast == last else {
            throw damaged("holds \(decoded) events, the block row says \(count)")
        }
    }
}
