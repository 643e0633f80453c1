import Foundation
import NavlogEvents
import XCTest

/// A `curl -N` reading `/v1/events` from a ``DaemonHarness``: what arrived so far, parsed.
public final class EventStream {
    /// One event of the stream: its SSE `id:` (nil in NDJSON) and its JSON.
    public struct Entry {
        public let id: String?
        public let event: JSONValue
    }

    private let process = Process()
    private let output = Pipe()
    private var text = ""
    private var isEnded = false

    /// Starts reading `path` with `headers`, and polls the daemon's metrics (bounded) until it
    /// counts `subscribers` open streams, so that what is recorded next reaches this one.
    public init(_ daemon: DaemonHarness, _ path: String, headers: [String: String] = [:], subscribers: Int,
                file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "--max-time", "30", "--unix-socket", daemon.socketPath]
            + headers.flatMap { ["-H", "\($0.key): \($0.value)"] } + ["http://localhost" + path]
        process.standardOutput = output
        try process.run()
        var attempts = 0
        while try !daemon.request("GET", "/metrics").body.contains("navlog_stream_subscribers \(subscribers)\n"), attempts < 1000 {
            attempts += 1
        }
        XCTAssertLessThan(attempts, 1000, "the stream \(path) never opened", file: file, line: line)
    }

    /// Reads until `isEnough` holds for the entries so far, or the stream ends; returns them.
    @discardableResult
    public func read(until isEnough: ([Entry]) -> Bool) throws -> [Entry] {
        var entries = try self.entries()
        while !isEnough(entries), !isEnded {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { isEnded = true } else { text += String(decoding: data, as: UTF8.self) }
            entries = try self.entries()
        }
        return entries
    }

    /// Reads to the end of the stream (the daemon stopped, or curl's time ran out).
    public func finish() throws -> [Entry] {
        let entries = try read { _ in false }
        process.waitUntilExit()
        return entries
    }

    /// Everything received so far, verbatim.
    public var received: String { text }

    /// Ends the stream from the client's side.
    public func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The complete events received: SSE blocks of `event: event` (with their `id:`), or NDJSON
    /// lines, skipping heartbeats and anything not yet complete.
    private func entries() throws -> [Entry] {
        if text.hasPrefix("id: ") || text.hasPrefix("event: ") || text.hasPrefix(":") {
            return try text.components(separatedBy: "\n\n").dropLast().compactMap { block in
                let lines = block.split(separator: "\n")
                guard lines.contains("event: event"), let data = lines.first(where: { $0.hasPrefix("data: ") }) else { return nil }
                let id = lines.first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
                return Entry(id: id, event: try JSONValue(parsing: String(data.dropFirst(6))))
            }
        }
        return try text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { Entry(id: nil, event: try JSONValue(parsing: String($0))) }
    }
}
