import Foundation
import NavlogTestSupport
import XCTest

/// The memory of one long explored session is bounded by what stays live in it, not by what it
/// recorded (part of the fault suite, `scripts/faults`).
///
/// An unbiased walk over `articles` drifts ever deeper, and every live article's presenter
/// records a `viewmodel.change` at each bookmark toggle: 5,000 steps record 120,000 events.
/// The explorer once kept every event for its leak check, about 1.2 KB each: 172 MB at its
/// peak for this walk (release build), 1.8 GB for 20,000 steps. It now finds leaks as the
/// events pass.
final class LongSessionMemoryTests: XCTestCase {
    /// What one `navlog explore` did, from GNU time (`%M`: the child's peak resident set, its
    /// VmHWM when it exited, as wait4 reports it).
    private struct Walk {
        var events: Int
        var peakMegabytes: Double
        var seconds: Double
    }

    private func explore(_ arguments: [String], journal: URL) throws -> Walk {
        let timeOutput = journal.path + ".time"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %e", "-o", timeOutput, Product.navlog.path,
                             "explore", "articles", "--journal", journal.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stdout)
        let figures = try String(contentsOfFile: timeOutput, encoding: .utf8).split(separator: "\n").last?.split(separator: " ") ?? []
        let events = stdout.components(separatedBy: "recorded ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
        guard figures.count == 2, let kilobytes = Double(figures[0]), let seconds = Double(figures[1]), let events else {
            throw XCTSkip("GNU time or navlog gave no figures: \(figures) \(stdout)")
        }
        return Walk(events: events, peakMegabytes: kilobytes / 1024, seconds: seconds)
    }

    func testALongWalkKeepsNoMemoryPerEvent() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("GNU time is missing; scripts/setup installs it") }
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let deep = try explore(["--steps", "5000", "--back-bias", "0"], journal: directory.appendingPathComponent("deep"))
        let bound = 96.0
        XCTAssertGreaterThan(deep.events, 100_000, "the unbiased walk records a six-figure number of events")
        XCTAssertLessThan(deep.peakMegabytes, bound, "peak RSS of a 5,000-step walk with \(deep.events) events")
        // The default bias goes back as people do: the same steps stay a few screens deep.
        let biased = try explore(["--steps", "5000"], journal: directory.appendingPathComponent("biased"))
        XCTAssertLessThan(biased.events, deep.events / 4)
        print("fault: long session: articles, 5000 steps, --back-bias 0: \(deep.events) events, peak RSS \(Int(deep.peakMegabytes)) MB "
              + "(bound \(Int(bound)) MB), \(deep.seconds) s; default bias: \(biased.events) events, peak RSS \(Int(biased.peakMegabytes)) MB, "
              + "\(biased.seconds) s")
    }
}
