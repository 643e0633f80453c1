/// Pure functions over one session's path: the screen types it visited, in order.
enum PathAnalysis {
    /// The marker for the end of a session in anchored paths and funnel drop-offs.
    static let end = "(end)"
    /// The marker for the start of a session in paths that lead to a screen.
    static let start = "(start)"
    /// The marker for a path cut at the maximum length.
    static let ellipsis = "…"

    /// Returns the path cut to `limit` screens, ending in `…` when it was longer.
    static func truncated(_ path: [String], to limit: Int) -> [String] {
        path.count <= limit ? path : Array(path.prefix(limit)) + [ellipsis]
    }

    /// Returns every run of `length` consecutive screens, with repetitions.
    static func subpaths(of path: [String], length: Int) -> [[String]] {
        guard length >= 1, path.count >= length else { return [] }
        return (0...(path.count - length)).map { Array(path[$0..<($0 + length)]) }
    }

    /// Returns the paths of up to `length` screens that start at each visit of `anchor`,
    /// ending in `(end)` when the session ended sooner.
    static func paths(from anchor: String, in path: [String], length: Int) -> [[String]] {
        path.indices.filter { path[$0] == anchor }.map { index in
            let end = min(path.count, index + length)
            let slice = Array(path[index..<end])
            return end == path.count && slice.count < length ? slice + [PathAnalysis.end] : slice
        }
    }

    /// Returns the paths of up to `length` screens that end at each visit of `anchor`,
    /// starting with `(start)` when the session started closer.
    static func paths(to anchor: String, in path: [String], length: Int) -> [[String]] {
        path.indices.filter { path[$0] == anchor }.map { index in
            let start = max(0, index - length + 1)
            let slice = Array(path[start...index])
            return start == 0 && slice.count < length ? [PathAnalysis.start] + slice : slice
        }
    }

    /// Returns every A→B→A round trip (A ≠ B), with repetitions.
    static func cycles(in path: [String]) -> [[String]] {
        guard path.count >= 3 else { return [] }
        var cycles: [[String]] = []
        for index in 2..<path.count where path[index] == path[index - 2] && path[index] != path[index - 1] {
            cycles.append([path[index - 2], path[index - 1], path[index]])
        }
        return cycles
    }

    /// Returns each maximal alternation between two screen types (A→B→A→B…) as the pair,
    /// in the order first seen, and its number of round trips (A→B→A counts one).
    static func alternations(in path: [String]) -> [(pair: [String], roundTrips: Int)] {
        var result: [(pair: [String], roundTrips: Int)] = []
        var start = 0
        var index = 2
        func close(at end: Int) {
            let length = end - start
            if length >= 3 { result.append(([path[start], path[start + 1]], (length - 1) / 2)) }
        }
        while index < path.count {
            if path[index] == path[index - 2], path[index] != path[index - 1] {
                index += 1
                continue
            }
            close(at: index)
            start = index - 1
            index += 1
        }
        if path.count >= 3 { close(at: path.count) }
        return result
    }

    /// How far a session got through a funnel.
    struct FunnelProgress: Equatable {
        /// The indices into the path of the steps reached, in order.
        var reachedIndices: [Int]
        /// The screen right after the last reached step, or `(end)`; `nil` when it converted
        /// or never entered.
        var nextAfterLastStep: String?
    }

    /// Matches `steps` in order against `path`, other screens allowed in between; each step
    /// takes the first visit after the step before.
    static func progress(through steps: [String], in path: [String]) -> FunnelProgress {
        var reached: [Int] = []
        var cursor = 0
        for step in steps {
            guard let index = path[cursor...].firstIndex(of: step) else { break }
            reached.append(index)
            cursor = index + 1
        }
        guard let last = reached.last, reached.count < steps.count else {
            return FunnelProgress(reachedIndices: reached, nextAfterLastStep: nil)
        }
        return FunnelProgress(reachedIndices: reached, nextAfterLastStep: last + 1 < path.count ? path[last + 1] : end)
    }
}
