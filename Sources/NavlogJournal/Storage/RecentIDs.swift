/// Each session's most recently used ids of one column, most recent first: version 2 of the
/// block writes the subject and screen columns through it.
///
/// An id the event's session used among its last ``depth`` distinct ones is written as its place
/// in that list (0 for the last one), any other as ``depth`` + the id; either way the id moves to
/// the front. A session mostly stays on a few screens and talks to a few presenters and
/// coordinators, while the block interleaves dozens of sessions, so the places are small numbers
/// that deflate codes in a few bits: on the bench workload the two columns went from 0.97 to about
/// 0.6 bytes/event.
struct RecentIDs {
    static let depth = 16

    /// Each event's session as a dense slot number, in order of first appearance.
    let slots: [Int]
    private var ids: [Int64]
    private var counts: [Int]

    /// Lists for the sessions of `sessions`, one per event.
    init(sessions: [Int64]) {
        var table = EventBlock.SessionSeqTable(capacity: sessions.count)
        var next: UInt64 = 0
        slots = sessions.map { session in
            Int(table.advance(session) { last in
                if last > 0 { return last }
                next += 1
                return next
            } - 1)
        }
        let slotCount = Int(next)
        ids = Array(repeating: 0, count: slotCount * Self.depth)
        counts = Array(repeating: 0, count: slotCount)
    }

    /// Returns what to write for `id` at event `index`, and moves it to the front.
    mutating func encode(_ id: Int64, at index: Int) -> UInt64 {
        let slot = slots[index]
        if let place = place(of: id, slot: slot) {
            moveToFront(place, slot: slot)
            return UInt64(place)
        }
        insert(id, slot: slot)
        return UInt64(Self.depth) &+ UInt64(bitPattern: id)
    }

    /// Returns the id that `raw` stands for at event `index`, and moves it to the front.
    mutating func decode(_ raw: UInt64, at index: Int) throws -> Int64 {
        let slot = slots[index]
        guard raw >= UInt64(Self.depth) else {
            guard raw < UInt64(counts[slot]) else {
                throw ByteReaderError(offset: 0, reason: "recent id \(raw) of a session that has used \(counts[slot])")
            }
            let id = ids[slot * Self.depth + Int(raw)]
            moveToFront(Int(raw), slot: slot)
            return id
        }
        let id = Int64(bitPattern: raw &- UInt64(Self.depth))
        insert(id, slot: slot)
        return id
    }

    private func place(of id: Int64, slot: Int) -> Int? {
        let base = slot * Self.depth
        for place in 0..<counts[slot] where ids[base + place] == id { return place }
        return nil
    }

    private mutating func moveToFront(_ place: Int, slot: Int) {
        let base = slot * Self.depth
        let id = ids[base + place]
        var position = place
        while position > 0 {
            ids[base + position] = ids[base + position - 1]
            position -= 1
        }
        ids[base] = id
    }

    private mutating func insert(_ id: Int64, slot: Int) {
        let base = slot * Self.depth
        if counts[slot] < Self.depth { counts[slot] += 1 }
        var position = counts[slot] - 1
        while position > 0 {
            ids[base + position] = ids[base + position - 1]
            position -= 1
        }
        ids[base] = id
    }
}
