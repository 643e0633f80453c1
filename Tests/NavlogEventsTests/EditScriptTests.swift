import NavlogEvents
import XCTest

/// `EditScript` against a second computation: the longest common subsequence's length from the
/// textbook dynamic-programming table, on many seeded random pairs; and the script's own
/// shape (every element accounted for once, in order, equal where it says same).
final class EditScriptTests: XCTestCase {
    func testTheDocumentedExample() {
        let script = EditScript(from: ["a", "b", "c"], to: ["a", "c", "d"])
        XCTAssertEqual(script.steps, [.same(0, 0), .removed(1), .same(2, 1), .added(2)])
        XCTAssertEqual(script.removedCount, 1)
        XCTAssertEqual(script.addedCount, 1)
    }

    func testEmptyAndEqualSequences() {
        XCTAssertEqual(EditScript(from: [Int](), to: []).steps, [])
        XCTAssertEqual(EditScript(from: [1, 2], to: []).steps, [.removed(0), .removed(1)])
        XCTAssertEqual(EditScript(from: [], to: [1, 2]).steps, [.added(0), .added(1)])
        XCTAssertEqual(EditScript(from: [1, 2, 3], to: [1, 2, 3]).steps, [.same(0, 0), .same(1, 1), .same(2, 2)])
    }

    func testRemovalsComeBeforeAdditionsInEachRunOfChanges() {
        XCTAssertEqual(EditScript(from: [1, 2, 3], to: [1, 4, 3]).steps, [.same(0, 0), .removed(1), .added(1), .same(2, 2)])
        XCTAssertEqual(EditScript(from: [1, 2], to: [3, 4]).steps, [.removed(0), .removed(1), .added(0), .added(1)])
    }

    /// 3,000 seeded pairs of lengths 0–40 over alphabets of 2–6 symbols: the script is valid
    /// and as short as the LCS table says the shortest is.
    func testScriptsAreValidAndShortestOnSeededPairs() {
        var generator = SplitMix64(seed: 22)
        for pair in 0..<3_000 {
            let alphabet = Int(generator.next() % 5) + 2
            let base = (0..<Int(generator.next() % 41)).map { _ in Int(generator.next() % UInt64(alphabet)) }
            var candidate = base
            // Half the pairs are edits of the base, half unrelated.
            if pair % 2 == 0 {
                for _ in 0..<Int(generator.next() % 6) {
                    let position = candidate.isEmpty ? 0 : Int(generator.next() % UInt64(candidate.count))
                    switch generator.next() % 3 {
                    case 0: candidate.insert(Int(generator.next() % UInt64(alphabet)), at: position)
                    case 1: if !candidate.isEmpty { candidate.remove(at: position) }
                    default: if !candidate.isEmpty { candidate[position] = Int(generator.next() % UInt64(alphabet)) }
                    }
                }
            } else {
                candidate = (0..<Int(generator.next() % 41)).map { _ in Int(generator.next() % UInt64(alphabet)) }
            }
            let script = EditScript(from: base, to: candidate)
            assertValid(script, base, candidate, "pair \(pair): \(base) → \(candidate)")
            let common = script.steps.filter { if case .same = $0 { true } else { false } }.count
            XCTAssertEqual(common, Self.longestCommonSubsequence(base, candidate), "pair \(pair): \(base) → \(candidate)")
        }
    }

    /// Two unrelated sequences of 6,000 elements (36 million table cells, past where the old
    /// table gave up and showed everything removed and everything added) still align exactly.
    func testLongDifferentSequencesStillAlign() {
        var generator = SplitMix64(seed: 7)
        let base = (0..<6_000).map { _ in Int(generator.next() % 4) }
        let candidate = (0..<6_000).map { _ in Int(generator.next() % 4) }
        let script = EditScript(from: base, to: candidate)
        assertValid(script, base, candidate, "6,000 × 6,000")
        XCTAssertGreaterThan(6_000 - script.removedCount, 3_000, "a random pair over four symbols shares most of its length")
    }

    /// A session of 500,000 events with a few changes aligns in linear memory: the changes
    /// alone are reported.
    func testLongNearlyEqualSequencesReportOnlyTheirChanges() {
        let base = Array(0..<500_000)
        var candidate = base
        candidate.remove(at: 250_000)
        candidate.insert(-1, at: 100_000)
        candidate[400_000] = -2
        let script = EditScript(from: base, to: candidate)
        XCTAssertEqual(script.removedCount, 2)
        XCTAssertEqual(script.addedCount, 2)
        assertValid(script, base, candidate, "500k")
    }

    // MARK: - Second computation

    /// The length of a longest common subsequence, from the full table.
    static func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    /// Every base index appears once, in order, as same or removed; every candidate index once,
    /// in order, as same or added; same pairs are equal; and no addition precedes a removal
    /// within a run of changes.
    func assertValid(_ script: EditScript, _ base: [Int], _ candidate: [Int], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        var nextBase = 0, nextCandidate = 0
        var sawAddition = false
        for step in script.steps {
            switch step {
            case .same(let i, let j):
                XCTAssertEqual(i, nextBase, message, file: file, line: line)
                XCTAssertEqual(j, nextCandidate, message, file: file, line: line)
                XCTAssertEqual(base[i], candidate[j], message, file: file, line: line)
                nextBase += 1
                nextCandidate += 1
                sawAddition = false
            case .removed(let i):
                XCTAssertEqual(i, nextBase, message, file: file, line: line)
                XCTAssertFalse(sawAddition, "an addition before a removal: \(message)", file: file, line: line)
                nextBase += 1
            case .added(let j):
                XCTAssertEqual(j, nextCandidate, message, file: file, line: line)
                nextCandidate += 1
                sawAddition = true
            }
            if nextBase > base.count || nextCandidate > candidate.count { break }
        }
        XCTAssertEqual(nextBase, base.count, message, file: file, line: line)
        XCTAssertEqual(nextCandidate, candidate.count, message, file: file, line: line)
    }
}
