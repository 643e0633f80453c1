import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogRemote
import NavlogTestSupport
import XCTest

/// The README's "Recording to a daemon from anywhere": an app records into a journal on the
/// device and to a navlogd at once, through a fan-out sink.
final class RemoteRecordingExampleTests: XCTestCase {
    /// The lines, as the README shows them.
    static let readmeSnippet = """
        let local = try JournalWriter(configuration: JournalConfiguration(directory: journalDirectory))
        let remote = try RemoteEventSink(configuration: RemoteSinkConfiguration(
            url: daemonURL, source: "checkout-ios", spoolDirectory: spoolDirectory))
        let session = try SessionCore(id: "s-1", app: checkout, parameters: try checkout.resolveParameters([:]),
                                      sink: FanOutEventSink([local, remote]))
        try session.perform(.action(element: "checkout", value: nil))
        session.end()
        remote.flush(timeout: .seconds(5))   // close() and the app's exit flush too
        try local.close()
        """

    func testTheReadmeRemoteSnippetRecordsLocallyAndInTheDaemon() throws {
        let daemon = try DaemonHarness(self)
        let daemonURL = "http://127.0.0.1:\(try XCTUnwrap(daemon.tcpPort))"
        let journalDirectory = makeTemporaryDirectory(self) + "/journal"
        let spoolDirectory = makeTemporaryDirectory(self) + "/spool"

        let local = try JournalWriter(configuration: JournalConfiguration(directory: journalDirectory))
        let remote = try RemoteEventSink(configuration: RemoteSinkConfiguration(
            url: daemonURL, source: "checkout-ios", spoolDirectory: spoolDirectory))
        let session = try SessionCore(id: "s-1", app: checkout, parameters: try checkout.resolveParameters([:]),
                                      sink: FanOutEventSink([local, remote]))
        try session.perform(.action(element: "checkout", value: nil))
        session.end()
        remote.flush(timeout: .seconds(5))   // close() and the app's exit flush too
        try local.close()

        remote.close()
        XCTAssertEqual(try daemon.request("POST", "/v1/journal/rotate").status, 200)
        let recorded = try JournalReader(paths: [journalDirectory]).allEvents()
        let received = try JournalReader(paths: [daemon.directory + "/journal"]).allEvents().filter { $0.run == remote.spool.runID }
        XCTAssertEqual(recorded.filter { $0.kind == .screenPush }.map(\.screen), ["Cart#1", "Payment#1"])
        // The same events in both: only the runs and seqs are each journal's own.
        let strip = { (event: Event) -> Event in
            var event = event
            event.seq = 0
            event.run = ""
            return event
        }
        XCTAssertEqual(received.map(strip), recorded.map(strip))

        let readme = try Repository.text("README.md")
        XCTAssertTrue(readme.contains(Self.readmeSnippet), "README.md lost the remote recording snippet:\n\(Self.readmeSnippet)")
    }
}
