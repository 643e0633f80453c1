import NavlogEvents

/// Durations kept for order statistics, with bounded memory.
///
/// Up to `limit` durations are kept exactly. Beyond that it keeps a uniform reservoir sample
/// (Vitter's algorithm R) drawn with a fixed-seed generator, so the same stream always gives
/// the same report. Memory is therefore at most `limit` values per reservoir, however many
/// events are read.
struct DurationReservoir {
    private(set) var sample: [UInt64] = []
    /// How many durations were offered.
    private(set) var count = 0
    let limit: Int
    private var generator: SplitMix64

    init(limit: Int, seed: UInt64 = 0x6E61_766C_6F67) {
        self.limit = limit
        self.generator = SplitMix64(seed: seed)
    }

    /// Whether the sample holds fewer values than were offered.
    var isSampled: Bool { count > sample.count }

    mutating func add(_ duration: UInt64) {
        count += 1
        if sample.count < limit {
            sample.append(duration)
        } else {
            let slot = Int(generator.next() % UInt64(count))
            if slot < limit { sample[slot] = duration }
        }
    }

    /// The summary of the kept durations.
    var summary: DurationSummary {
        DurationSummary(sampleNanoseconds: sample, count: count)
    }
}
