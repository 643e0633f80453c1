import NavlogEvents

/// The difference between two normalized event sequences, as a snapshot-test failure shows
/// it: hunks of `-`/`+` lines with context, and under a changed view-model event the fields
/// of its snapshot that differ.
///
/// ```
/// @@ -10,4 +10,5 @@
///   10 coordinator.start DetailCoordinator#1 ←9 parent=RootMasterCoordinator#1
///   11 presenter.init DetailPresenter#1 ←10 DetailViewModel
/// - 12 screen.push DetailCoordinator#1 [Detail#1] ←10 bound=["DetailPresenter#1"] depth=2 stack=MasterNavigation#1
/// + 12 screen.push DetailCoordinator#1 [Detail#1] ←10 bound=["DetailPresenter#1"] depth=1 stack=DetailNavigation#1
/// + 13 screen.present DetailCoordinator#1 [Detail#1] ←10 content=DetailNavigation#1 level=1 over=Master#1 style=sheet
/// ```
public struct SequenceDiff: Sendable, Equatable {
    /// One stretch of changes with its context.
    public struct Hunk: Sendable, Equatable {
        /// The 1-based position and length of the stretch in the base and the candidate.
        public var baseStart: Int
        public var baseCount: Int
        public var candidateStart: Int
        public var candidateCount: Int
        /// Lines starting with two spaces (context), `- ` (base only) or `+ ` (candidate only);
        /// snapshot field differences are indented further under their `+` line.
        public var lines: [String]

        public var header: String { "@@ -\(baseStart),\(baseCount) +\(candidateStart),\(candidateCount) @@" }
    }

    public var hunks: [Hunk]
    /// Events only in the base, and only in the candidate.
    public var removed: Int
    public var added: Int

    public var isEmpty: Bool { hunks.isEmpty }

    /// Compares `base` with `candidate`, keeping `context` unchanged events around changes.
    public init(base: [NormalizedEvent], candidate: [NormalizedEvent], context: Int = 3) {
        // The shortest edit script (Myers), exact at any length.
        let script = EditScript(from: base, to: candidate)
        let steps = script.steps
        removed = script.removedCount
        added = script.addedCount
        hunks = []
        var index = 0
        while index < steps.count {
            guard case .same = steps[index] else {
                index = emitHunk(from: index, steps: steps, base: base, candidate: candidate, context: context)
                continue
            }
            index += 1
        }
    }

    // MARK: - Hunks

    /// Appends the hunk holding the change at `start`, merging changes whose contexts touch;
    /// returns the index after it.
    private mutating func emitHunk(from start: Int, steps: [EditScript.Step], base: [NormalizedEvent], candidate: [NormalizedEvent], context: Int) -> Int {
        let first = max(0, start - context)
        var end = start
        var lastChange = start
        while end < steps.count {
            if case .same = steps[end] {
                if end - lastChange > 2 * context { break }
            } else {
                lastChange = end
            }
            end += 1
        }
        let last = min(steps.count, lastChange + context + 1)
        var lines: [String] = []
        var baseStart: Int?, candidateStart: Int?
        var baseCount = 0, candidateCount = 0
        var pendingRemoved: [NormalizedEvent] = []
        for step in steps[first..<last] {
            switch step {
            case .same(let i, let j):
                baseStart = baseStart ?? i + 1
                candidateStart = candidateStart ?? j + 1
                baseCount += 1
                candidateCount += 1
                pendingRemoved = []
                lines.append("  " + base[i].line)
            case .removed(let i):
                baseStart = baseStart ?? i + 1
                baseCount += 1
                pendingRemoved.append(base[i])
                lines.append("- " + base[i].line)
            case .added(let j):
                candidateStart = candidateStart ?? j + 1
                candidateCount += 1
                lines.append("+ " + candidate[j].line)
                if let index = pendingRemoved.firstIndex(where: { SequenceDiff.isSameViewModel($0, candidate[j]) }) {
                    lines += SequenceDiff.fieldLines(pendingRemoved[index], candidate[j])
                    pendingRemoved.remove(at: index)
                }
            }
        }
        hunks.append(Hunk(
            baseStart: baseStart ?? 0, baseCount: baseCount,
            candidateStart: candidateStart ?? 0, candidateCount: candidateCount, lines: lines
        ))
        return last
    }

    /// Whether two events are the same view model's snapshot at the same point.
    private static func isSameViewModel(_ a: NormalizedEvent, _ b: NormalizedEvent) -> Bool {
        a.kind == b.kind && a.subject == b.subject && a.snapshot != nil && b.snapshot != nil
            && a.payload["viewmodel"] == b.payload["viewmodel"]
    }

    /// The snapshot fields that differ, as `- field: old` / `+ field: new` lines.
    static func fieldLines(_ a: NormalizedEvent, _ b: NormalizedEvent) -> [String] {
        let old = a.snapshot ?? [:], new = b.snapshot ?? [:]
        let name = a.payload["viewmodel"]?.stringValue.map { $0 + "." } ?? ""
        var lines: [String] = []
        for field in Set(old.keys).union(new.keys).sorted() where old[field] != new[field] {
            if let value = old[field] { lines.append("      - \(name)\(field): \(value.serialized())") }
            if let value = new[field] { lines.append("      + \(name)\(field): \(value.serialized())") }
        }
        return lines
    }
}
