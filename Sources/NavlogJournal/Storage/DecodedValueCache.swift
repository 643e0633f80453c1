import Foundation
import NavlogEvents

/// Decoded payload values by their encoded bytes, so a value the journal repeats is decoded
/// once and then shared instead of allocated, and later freed, again for every event.
///
/// Journals repeat a lot: the payload of nearly every `screen.push` is `{"animated":true}`,
/// and successive snapshots of one view model share most of their fields (see
/// ``EventBlock``, which stores them next to each other). Two kinds of value are looked up
/// (see ``ByteReader/readJSON(depth:cache:)``): whole payloads of up to ``largestValue``
/// encoded bytes, and strings longer than the 15 bytes Swift keeps inline. A value is found by
/// its whole encoded form, tag included, and the bytes are compared, so a hit is always the
/// value those bytes decode to. Short strings have a table of their own (``shortString(_:)``).
///
/// A value is kept the second time its bytes turn up, so the one-off ones (most snapshots)
/// neither cost a copy nor push out the repeated ones. Memory is bounded: when the table is
/// half full or the saved bytes reach `byteLimit`, everything is dropped and the cache fills
/// again from what comes next. One reader uses it at a time (it is not `Sendable`).
final class DecodedValueCache {
    /// The largest encoded value kept; larger ones are rarely repeated whole.
    static let largestValue = 512

    private struct Slot {
        /// ``DecodedValueCache/hash(_:)`` of the bytes; 0 for an empty slot.
        var hash: UInt64
        /// Where the bytes start in `saved`, and how many there are.
        var start: Int
        var length: Int
        var value: JSONValue
    }

    // Fixed-size buffers rather than arrays: a class's array properties are checked for
    // exclusive access on every use, which cost as much as the lookups themselves.
    private let slots: UnsafeMutableBufferPointer<Slot>
    /// Hashes seen once and not kept yet, each in the place some of its bits pick (a lossy filter).
    private let seen: UnsafeMutableBufferPointer<UInt64>
    private let saved: UnsafeMutableRawBufferPointer
    private var savedCount = 0
    private var count = 0

    /// A table of `slotCount` slots (rounded up to a power of two) holding at most half as
    /// many values and `byteLimit` bytes of their encodings.
    init(slotCount: Int = 16384, byteLimit: Int = 1 << 21) {
        var capacity = 16
        while capacity < slotCount { capacity <<= 1 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(hash: 0, start: 0, length: 0, value: .null))
        seen = .allocate(capacity: capacity)
        seen.initialize(repeating: 0)
        saved = .allocate(byteCount: max(byteLimit, Self.largestValue), alignment: 8)
    }

    deinit {
        shortStrings.deinitialize()
        shortStrings.deallocate()
        slots.deinitialize()
        slots.deallocate()
        seen.deallocate()
        saved.deallocate()
    }

    /// The number of values held now.
    var valueCount: Int { count }

    /// The value `bytes` encode, if cached; `hash` is ``hash(_:)`` of `bytes`.
    func value(for bytes: UnsafeRawBufferPointer, hash: UInt64) -> JSONValue? {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slotHash = slots[index].hash
            if slotHash == 0 { return nil }
            if slotHash == hash, matches(bytes, slot: index) { return slots[index].value }
            index = (index + 1) & mask
        }
    }

    /// Keeps `value` as what `bytes` encode if these bytes were offered before; `hash` is
    /// ``hash(_:)`` of `bytes`.
    func offer(_ value: JSONValue, for bytes: UnsafeRawBufferPointer, hash: UInt64) {
        let filterIndex = Int(truncatingIfNeeded: hash >> 20) & (seen.count - 1)
        guard seen[filterIndex] == hash else {
            seen[filterIndex] = hash
            return
        }
        if count * 2 >= slots.count || savedCount + bytes.count > saved.count { removeAll() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].hash != 0 {
            if slots[index].hash == hash, matches(bytes, slot: index) { return }
            index = (index + 1) & mask
        }
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (saved.baseAddress! + savedCount).copyMemory(from: base, byteCount: bytes.count)
        }
        slots[index] = Slot(hash: hash, start: savedCount, length: bytes.count, value: value)
        savedCount += bytes.count
        count += 1
    }

    private func matches(_ bytes: UnsafeRawBufferPointer, slot index: Int) -> Bool {
        let slot = UnsafePointer(slots.baseAddress! + index)
        guard slot.pointee.length == bytes.count else { return false }
        return bytes.isEmpty || memcmp(saved.baseAddress! + slot.pointee.start, bytes.baseAddress!, bytes.count) == 0
    }

    private func removeAll() {
        for index in slots.indices where slots[index].hash != 0 {
            slots[index] = Slot(hash: 0, start: 0, length: 0, value: .null)
        }
        savedCount = 0
        count = 0
    }

    // MARK: - Short strings

    /// One remembered short string: its UTF-8 bytes packed into two words, and their count.
    private struct ShortString {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = -1
        var string = ""
    }

    /// Recently read short strings by their bytes, direct-mapped: object keys and short
    /// values such as screen ids repeat in nearly every payload.
    private let shortStrings: UnsafeMutableBufferPointer<ShortString> = {
        let table = UnsafeMutableBufferPointer<ShortString>.allocate(capacity: 1024)
        table.initialize(repeating: ShortString())
        return table
    }()

    /// The string of `bytes` (at most 15, which Swift keeps inline, so there is nothing to
    /// share), read before or now. Comparing two packed words is cheaper than validating and
    /// building the string again.
    func shortString(_ bytes: UnsafeRawBufferPointer) -> String {
        precondition(bytes.count <= 15)
        var packed: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &packed) { words in
            if let base = bytes.baseAddress { words.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        }
        let index = Int(truncatingIfNeeded: SplitMix64.finalize(packed.0 ^ (packed.1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bytes.count)) >> 54)
        let slot = shortStrings.baseAddress! + index
        if slot.pointee.count == bytes.count, slot.pointee.low == packed.0, slot.pointee.high == packed.1 {
            return slot.pointee.string
        }
        let string = String(decoding: bytes, as: UTF8.self)
        slot.pointee = ShortString(low: packed.0, high: packed.1, count: bytes.count, string: string)
        return string
    }

    /// A 64-bit hash of `bytes`, eight at a time, never 0.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            state = (state ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            state ^= state >> 29
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
            state = (state ^ tail) &* 0x9E37_79B9_7F4A_7C15
        }
        return SplitMix64.finalize(state) | 1
    }
}
