import Foundation

/// What the journal keeps of one accepted ingest request (`POST /v1/ingest` with an
/// `Idempotency-Key`): the key, when it was committed, the seqs its events got, and the answer
/// given, so that a retry of the key is answered the same without journaling anything again.
///
/// The writer stores it in the file's `ingest_receipt` table in the same transaction as the
/// events it covers: after a crash either both are in the journal or neither is.
public final class IngestReceipt: Sendable {
    /// The client's `Idempotency-Key`.
    public let key: String
    /// Wall-clock nanoseconds when the request was taken (the window counts from here).
    public let committedNanoseconds: Int64
    /// The seqs the journal gave the request's first and last event.
    public let firstSeq: UInt64
    public let lastSeq: UInt64
    /// The answer's JSON document, as sent.
    public let answer: String

    public init(key: String, committedNanoseconds: Int64, firstSeq: UInt64 = 0, lastSeq: UInt64 = 0, answer: String) {
        self.key = key
        self.committedNanoseconds = committedNanoseconds
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.answer = answer
    }

    /// About how many bytes a daemon's memory holds to remember the receipt of `key` with
    /// `answer`: their UTF-8 bytes and a fixed share for the strings' headers and the table
    /// entries around them (measured: 40,000 keys of 36 bytes with 41-byte answers grew a
    /// navlogd by 378 bytes each). The measure of `ingest.idempotency_max_bytes`.
    public static func rememberedBytes(key: String, answer: String) -> Int {
        key.utf8.count + answer.utf8.count + 300
    }

    /// The same receipt with the seqs the journal assigned.
    func assigning(firstSeq: UInt64, lastSeq: UInt64) -> IngestReceipt {
        IngestReceipt(key: key, committedNanoseconds: committedNanoseconds, firstSeq: firstSeq, lastSeq: lastSeq, answer: answer)
    }
}
