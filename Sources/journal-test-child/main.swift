import CCrypto
import Foundation
import NavlogEvents
import NavlogHTTPClient
import NavlogJournal
import NavlogRemote

// `journal-test-child --exit-probe curl|urlsession DIRECTORY`: one of navlog's two HTTP
// clients (NavlogHTTPClient's libcurl, or URLSession, whose libcurl starts OpenSSL too) is made
// first, then a writer that hashes private values on its thread, and the process exits. An
// atexit handler registered before anything started OpenSSL runs after any handler OpenSSL
// registers (they run last in, first out); it exits 3 when OpenSSL was cleaned up by then,
// since that cleanup can free a still-ending thread's OpenSSL state a second time (glibc then
// aborts).
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--exit-probe" {
    atexit {
        guard OPENSSL_init_crypto(0, nil) != 1 else { return }
        FileHandle.standardError.write(Data("OpenSSL was cleaned up by an atexit handler\n".utf8))
        _exit(3)
    }
    do {
        if CommandLine.arguments[2] == "curl" {
            try HTTPClient().close()
        } else {
            _ = try IngestClient(url: "http://127.0.0.1:9", source: "exit-probe")
        }
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: CommandLine.arguments[3]))
        var event = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 1, kind: .action,
                          subject: "Presenter#1", payload: ["email": "ana@example.com"])
        event.privatePaths = ["email"]
        writer.record(event)
        try writer.close()
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(2)
    }
    exit(0)
}

// A writer child process for NavlogJournalTests: `journal-test-child DIRECTORY FLUSH_MS`.
//
// Records events as fast as it can from one thread; another thread flushes in a loop and
// writes "committed <seq>" to stdout after each flush, until the parent kills it (kill -9).
// Event n (seq n in a fresh directory) carries session-seq n and payload["n"] = n, so the
// parent can check every reported event.

let arguments = CommandLine.arguments
guard arguments.count == 3, let flushMilliseconds = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: journal-test-child DIRECTORY FLUSH_MS\n".utf8))
    exit(64)
}
let writer: JournalWriter
do {
    writer = try JournalWriter(configuration: JournalConfiguration(
        directory: arguments[1], labels: ["role": "kill-test"], flushInterval: .milliseconds(flushMilliseconds),
        batchSize: 2000, blockSize: 500))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

let kinds = EventKind.allKnown.filter { $0 != .journalDropped }
let producer = Thread {
    var n: UInt64 = 0
    while true {
        n += 1
        let clock = SystemEventClock().now()
        writer.record(Event(
            wallNanoseconds: clock.wall, monotonicNanoseconds: clock.monotonic,
            session: "s-\(n % 40)", sessionSeq: n, kind: kinds[Int(n % UInt64(kinds.count))],
            subject: "Presenter#\(n % 7)", screen: n % 3 == 0 ? "Detail#\(n % 5)" : nil,
            cause: n > 1 ? n - 1 : nil,
            payload: ["n": .int(Int64(n)), "snapshot": ["title": .string("Item \(n % 100)"), "count": .int(Int64(n % 13))]]))
    }
}
producer.start()
while true {
    do {
        let committed = try writer.flush()
        FileHandle.standardOutput.write(Data("committed \(committed)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(2)
    }
}
