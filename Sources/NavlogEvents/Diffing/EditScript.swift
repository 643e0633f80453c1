/// The shortest edit script between two sequences: which elements they share, in order, and
/// which one side has alone.
///
/// Found with Myers' O((N+M)·D) algorithm in its linear-space form (E. W. Myers, "An O(ND)
/// Difference Algorithm and Its Variations", 1986, section 4b): the middle snake of each
/// stretch is found from both ends at once, and the halves on either side of it are solved
/// the same way. Memory stays linear in the sequences' length and time grows with how much
/// they differ, so two long, nearly equal event sequences align quickly and two different ones
/// still align exactly: there is no size past which alignment gives up.
///
/// ```swift
/// let script = EditScript(from: ["a", "b", "c"], to: ["a", "c", "d"])
/// // script.steps == [.same(0, 0), .removed(1), .same(2, 1), .added(2)]
/// ```
///
/// Within each run of changes, removals come before additions, as in `diff -u`.
public struct EditScript: Sendable, Equatable {
    /// One step of the script, holding indices into the two sequences.
    public enum Step: Sendable, Equatable {
        /// The base's element at the first index equals the candidate's at the second.
        case same(Int, Int)
        /// The base's element at this index is not in the candidate.
        case removed(Int)
        /// The candidate's element at this index is not in the base.
        case added(Int)

        var isChange: Bool { if case .same = self { false } else { true } }
    }

    /// The steps, in the order of both sequences.
    public private(set) var steps: [Step] = []

    /// How many elements the base has alone, and the candidate alone.
    public var removedCount: Int { steps.reduce(0) { if case .removed = $1 { $0 + 1 } else { $0 } } }
    public var addedCount: Int { steps.reduce(0) { if case .added = $1 { $0 + 1 } else { $0 } } }

    /// Computes the script that turns `base` into `candidate`.
    public init<Element: Equatable>(from base: [Element], to candidate: [Element]) {
        steps.reserveCapacity(max(base.count, candidate.count))
        var search = MiddleSnakeSearch(base: base, candidate: candidate)
        // Depth-first, left to right, with an explicit stack: each stretch emits its common
        // prefix, then (as later work) its left half, its middle snake, its right half and its
        // common suffix.
        var work: [Work] = [.solve(Stretch(baseRange: 0..<base.count, candidateRange: 0..<candidate.count))]
        while let item = work.popLast() {
            switch item {
            case .emit(let step):
                steps.append(step)
            case .emitSame(let baseStart, let candidateStart, let count):
                for offset in 0..<count { steps.append(.same(baseStart + offset, candidateStart + offset)) }
            case .solve(let stretch):
                work += search.plan(stretch).reversed()
            }
        }
        groupChanges()
    }

    /// Puts each run of changes between two common elements in the order removals, then
    /// additions: still a shortest script, and the order a reader of `diff -u` expects.
    private mutating func groupChanges() {
        var start = 0
        while start < steps.count {
            guard steps[start].isChange else {
                start += 1
                continue
            }
            var end = start
            while end < steps.count, steps[end].isChange { end += 1 }
            let run = steps[start..<end]
            let grouped = run.filter { if case .removed = $0 { true } else { false } } + run.filter { if case .added = $0 { true } else { false } }
            steps.replaceSubrange(start..<end, with: grouped)
            start = end
        }
    }

    /// A stretch of both sequences still to align.
    struct Stretch {
        var baseRange: Range<Int>
        var candidateRange: Range<Int>
    }

    /// What is left to do, innermost last.
    enum Work {
        case solve(Stretch)
        case emit(Step)
        case emitSame(baseStart: Int, candidateStart: Int, count: Int)
    }
}

/// The search for a stretch's middle snake, with its two diagonal arrays kept between calls.
private struct MiddleSnakeSearch<Element: Equatable> {
    let base: [Element]
    let candidate: [Element]
    /// The furthest base index reached on each diagonal, searching forward and backward;
    /// indexed by diagonal plus `offset`.
    var forward: [Int] = []
    var backward: [Int] = []

    init(base: [Element], candidate: [Element]) {
        self.base = base
        self.candidate = candidate
    }

    /// The work that solves `stretch`, in order: common prefix, the halves around the middle
    /// snake, common suffix; or the plain removals and additions when one side is empty.
    mutating func plan(_ stretch: EditScript.Stretch) -> [EditScript.Work] {
        var low = stretch.baseRange.lowerBound, high = stretch.baseRange.upperBound
        var candidateLow = stretch.candidateRange.lowerBound, candidateHigh = stretch.candidateRange.upperBound
        var work: [EditScript.Work] = []
        let prefixStart = (low, candidateLow)
        while low < high, candidateLow < candidateHigh, base[low] == candidate[candidateLow] {
            low += 1
            candidateLow += 1
        }
        if low > prefixStart.0 { work.append(.emitSame(baseStart: prefixStart.0, candidateStart: prefixStart.1, count: low - prefixStart.0)) }
        var suffix = 0
        while low < high - suffix, candidateLow < candidateHigh - suffix, base[high - 1 - suffix] == candidate[candidateHigh - 1 - suffix] {
            suffix += 1
        }
        high -= suffix
        candidateHigh -= suffix
        if low == high {
            work += (candidateLow..<candidateHigh).map { .emit(.added($0)) }
        } else if candidateLow == candidateHigh {
            work += (low..<high).map { .emit(.removed($0)) }
        } else {
            let snake = middleSnake(base: low..<high, candidate: candidateLow..<candidateHigh)
            work.append(.solve(.init(baseRange: low..<snake.baseStart, candidateRange: candidateLow..<snake.candidateStart)))
            if snake.length > 0 {
                work.append(.emitSame(baseStart: snake.baseStart, candidateStart: snake.candidateStart, count: snake.length))
            }
            work.append(.solve(.init(baseRange: (snake.baseStart + snake.length)..<high, candidateRange: (snake.candidateStart + snake.length)..<candidateHigh)))
        }
        if suffix > 0 { work.append(.emitSame(baseStart: high, candidateStart: candidateHigh, count: suffix)) }
        return work
    }

    /// The middle snake of a stretch whose ends differ on both sides: a run of equal elements
    /// that some shortest edit path crosses halfway.
    private mutating func middleSnake(base baseRange: Range<Int>, candidate candidateRange: Range<Int>) -> (baseStart: Int, candidateStart: Int, length: Int) {
        let n = baseRange.count, m = candidateRange.count
        let delta = n - m
        let isOdd = delta & 1 != 0
        let maximum = (n + m + 1) / 2
        let offset = maximum + 1
        let size = 2 * maximum + 3
        if forward.count < size {
            forward = Array(repeating: 0, count: size)
            backward = Array(repeating: 0, count: size)
        }
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        let a = baseRange.lowerBound, b = candidateRange.lowerBound
        for d in 0...maximum {
            // Forward: furthest-reaching paths of d edits from the top left. Preferring the
            // diagonal above (a removal) first keeps removals before additions.
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]))
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let startX = x, startY = y
                while x < n, y < m, base[a + x] == candidate[b + y] {
                    x += 1
                    y += 1
                }
                forward[offset + k] = x
                let reverseDiagonal = delta - k
                if isOdd, reverseDiagonal >= -(d - 1), reverseDiagonal <= d - 1, x + backward[offset + reverseDiagonal] >= n {
                    return (a + startX, b + startY, x - startX)
                }
            }
            // Backward: the same from the bottom right, counting from the ends.
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]))
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                while x < n, y < m, base[a + n - 1 - x] == candidate[b + m - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[offset + k] = x
                let forwardDiagonal = delta - k
                if !isOdd, forwardDiagonal >= -d, forwardDiagonal <= d, x + forward[offset + forwardDiagonal] >= n {
                    return (a + n - x, b + m - y, x - startX)
                }
            }
        }
        preconditionFailure("EditScript: no middle snake within \(maximum) edits of a \(n)×\(m) stretch")
    }
}
