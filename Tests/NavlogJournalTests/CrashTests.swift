import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// `kill -9` of a writer under heavy load loses at most the unflushed batch and corrupts nothing.
final class CrashTests: XCTestCase {
    func testKillNineUnderLoadKeepsEveryReportedCommit() throws {
        let directory = makeTemporaryDirectory(self)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: Product.journalTestChild.path)
        child.arguments = [directory, "20"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()

        // Read "committed <seq>" lines until the child has committed a good amount, then kill it mid-load.
        var buffer = Data()
        var reported: [UInt64] = []
        let reading = output.fileHandleForReading
        while reported.count < 5 || (reported.last ?? 0) < 30_000 {
            let chunk = reading.availableData
            guard !chunk.isEmpty else { break }
            buffer += chunk
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                if let seq = UInt64(line.dropFirst("committed ".count)) { reported.append(seq) }
            }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)
        let committed = try XCTUnwrap(reported.last, "the child reported no commit")
        XCTAssertGreaterThanOrEqual(committed, 30_000)

        // The journal opens: the file is set aside, verify passes, and every reported event is there.
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        XCTAssertEqual(writer.setAsideFiles.count, 1)
        try writer.close()
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertTrue(report.isHealthy, "\(report.issues)")
        let events = try JournalReader(paths: [directory]).allEvents()
        XCTAssertGreaterThanOrEqual(UInt64(events.count), committed)
        XCTAssertEqual(events.map(\.seq), Array(1...UInt64(events.count)), "no gaps")
        let mismatches = events.prefix(Int(committed)).filter { $0.sessionSeq != $0.seq || $0.payload["n"]?.intValue != Int64($0.seq) }
        XCTAssertEqual(mismatches.count, 0, "first mismatch: \(mismatches.first.map { $0.jsonLine() } ?? "")")
    }

    /// A process that journals with private values hashed (OpenSSL on the writer's thread) and
    /// uses libcurl, which starts OpenSSL too, exits without OpenSSL's atexit cleanup: it freed
    /// every thread's OpenSSL state while the writer's thread could still be ending, and glibc
    /// then aborted now and again (`navlog push`, `navlogd` with OTLP, apps with a remote sink).
    func testExitAfterCurlAndHashingRunsNoOpenSSLCleanup() throws {
        for client in ["curl", "urlsession"] {
            let directory = makeTemporaryDirectory(self)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: Product.journalTestChild.path)
            child.arguments = ["--exit-probe", client, directory + "/journal"]
            let errors = Pipe()
            child.standardError = errors
            try child.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationStatus, 0, "\(client) first: \(message)")
            XCTAssertEqual(try JournalReader(paths: [directory + "/journal"]).allEvents().map(\.kind), [.action], "the probe journaled its event")
        }
    }
}
