// swift-tools-version:6.0
import PackageDescription

// The layers, bottom up (docs/DESIGN.md draws them):
//   NavlogEvents                       the event model: events, JSON, privacy, replay, leaks
//   NavlogRuntime                      coordinators, containers, patterns, views: emits events
//   NavlogHost, NavlogSampleApps       sessions that host apps; the four seed apps
//   NavlogTesting                      NavigationTestStore for apps' own tests
//   NavlogJournal                      compressed SQLite journals of events
//   NavlogAnalysis, NavlogExport       reports and diffs; encoders for other engines
//   NavlogSQLite                       a SQLite loadable extension: SQL over journals
//   NavlogHTTPClient                   an HTTP(S) client over libcurl, for the push and the CLI
//   NavlogRemote                       apps' events to a navlogd: RemoteEventSink, journal upload
//   NavlogDaemon                       navlogd's HTTP API over hosted sessions
//   NavlogCommandLine                  the version and the --help layout the programs share
//   navlog, navlogd                    argument parsing and wiring
// Analysis, export and the journal read events only: they never link the runtime.
let package = Package(
    name: "navlog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NavlogEvents", targets: ["NavlogEvents"]),
        .library(name: "NavlogRuntime", targets: ["NavlogRuntime"]),
        .library(name: "NavlogHost", targets: ["NavlogHost"]),
        .library(name: "NavlogTesting", targets: ["NavlogTesting"]),
        .library(name: "NavlogSampleApps", targets: ["NavlogSampleApps"]),
        .library(name: "NavlogJournal", targets: ["NavlogJournal"]),
        .library(name: "NavlogAnalysis", targets: ["NavlogAnalysis"]),
        .library(name: "NavlogExport", targets: ["NavlogExport"]),
        .library(name: "NavlogHTTPClient", targets: ["NavlogHTTPClient"]),
        .library(name: "NavlogRemote", targets: ["NavlogRemote"]),
        .library(name: "NavlogDaemon", targets: ["NavlogDaemon"]),
        // The SQLite loadable extension: `.load .build/release/libNavlogSQLite` in `sqlite3`.
        .library(name: "NavlogSQLite", type: .dynamic, targets: ["NavlogSQLite"]),
        .executable(name: "navlog", targets: ["navlog"]),
        .executable(name: "navlogd", targets: ["navlogd"]),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Whole-buffer inflating and CRC-32 for the journal's blocks on Linux: about three
        // times zlib's speed at inflating, and ten at CRC-32 (docs/PERFORMANCE.md).
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // SHA-256 and HMAC-SHA256 for the redactor's keyed hashes.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),

        // MARK: - Libraries
        .target(name: "NavlogEvents", dependencies: ["CCrypto"]),
        .target(name: "NavlogRuntime", dependencies: ["NavlogEvents"]),
        .target(name: "NavlogHost", dependencies: ["NavlogEvents", "NavlogRuntime"]),
        .target(name: "NavlogTesting", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost"]),
        .target(name: "NavlogSampleApps", dependencies: ["NavlogEvents", "NavlogRuntime"]),
        // libdeflate on Linux only: NavlogRemote, which apps link, needs no library iOS and macOS
        // do not ship, and there the journal inflates with zlib.
        .target(name: "NavlogJournal", dependencies: ["NavlogEvents", "CSQLite", "CZlib", .target(name: "CDeflate", condition: .when(platforms: [.linux]))]),
        .target(name: "NavlogAnalysis", dependencies: ["NavlogEvents", "NavlogJournal"]),
        // Encoders for engines beyond one machine (OTLP, Chrome trace, ClickHouse); the daemon
        // reuses the OTLP encoder for its push.
        .target(name: "NavlogExport", dependencies: ["NavlogEvents"]),
        // The client side of HTTP (libcurl): the daemon's OTLP push and `navlog sessions`, which
        // so does not link the daemon's server.
        .target(name: "NavlogHTTPClient", dependencies: ["CCurl"]),
        // Events recorded anywhere, sent to a navlogd's POST /v1/ingest: RemoteEventSink (a
        // local journal as the spool) and the upload of `navlog push`. URLSession, so it builds
        // for iOS, macOS and Linux (no libcurl).
        .target(name: "NavlogRemote", dependencies: ["NavlogEvents", "NavlogJournal"]),
        // A SQLite loadable extension: virtual tables over a journal's compressed blocks, for
        // SQL in stock sqlite3 and any SQLite client.
        .target(name: "NavlogSQLite", dependencies: ["NavlogEvents", "NavlogJournal", "CSQLite"]),
        // What the programs share: the version and the layout of --help (no dependencies, so
        // navlogd need not link navlog's parser nor navlog the daemon). The daemon library
        // reads the version from it for its startup line and navlog_build_info.
        .target(name: "NavlogCommandLine"),
        .target(name: "NavlogDaemon", dependencies: ["NavlogCommandLine", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogJournal", "NavlogAnalysis", "NavlogExport", "NavlogHTTPClient", "CMicroHTTPD"]),

        // MARK: - Executables
        .executableTarget(name: "navlog", dependencies: ["NavlogCommandLine", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogJournal", "NavlogSampleApps", "NavlogAnalysis", "NavlogExport", "NavlogHTTPClient", "NavlogRemote"]),
        .executableTarget(name: "navlogd", dependencies: ["NavlogCommandLine", "NavlogDaemon", "NavlogHost", "NavlogSampleApps"]),
        .executableTarget(
            name: "navlog-bench",
            dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogJournal", "CSQLite", "CZlib", "CMicroHTTPD", "NavlogHost", "NavlogDaemon", "NavlogHTTPClient", "NavlogRemote", "NavlogSampleApps"]
        ),
        // A writer child process for NavlogJournalTests (the kill -9 test).
        .executableTarget(name: "journal-test-child", dependencies: ["CCrypto", "NavlogEvents", "NavlogHTTPClient", "NavlogJournal", "NavlogRemote"]),

        // MARK: - Tests
        // What the test targets share: running the built products, the repository's paths,
        // temporary directories, the OTLP validator, a running navlogd, synthetic events, a
        // stepping clock and a small app for the tests of hosts and analysis.
        .target(name: "NavlogTestSupport", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogHTTPClient"], path: "Tests/NavlogTestSupport"),
        .testTarget(name: "NavlogEventsTests", dependencies: ["NavlogEvents"]),
        .testTarget(name: "NavlogRuntimeTests", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogTesting", "NavlogTestSupport"]),
        .testTarget(name: "NavlogHostTests", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogTestSupport"]),
        .testTarget(name: "NavlogJournalTests", dependencies: ["NavlogEvents", "NavlogJournal", "NavlogTestSupport", "journal-test-child", "CZlib"]),
        .testTarget(name: "NavlogSampleAppsTests", dependencies: ["NavlogSampleApps", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogTestSupport"]),
        .testTarget(name: "NavlogAnalysisTests", dependencies: ["NavlogAnalysis", "NavlogEvents", "NavlogJournal", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogTestSupport"]),
        .testTarget(name: "ReadmeExampleTests", dependencies: ["NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogJournal", "NavlogAnalysis", "NavlogEvents", "NavlogRemote", "NavlogTestSupport", "navlogd"]),
        .testTarget(name: "NavlogExportTests", dependencies: ["NavlogExport", "NavlogJournal", "NavlogEvents", "NavlogRuntime", "NavlogTestSupport", "navlog"]),
        .testTarget(name: "NavlogCLITests", dependencies: ["NavlogEvents", "NavlogTesting", "NavlogTestSupport", "navlog"]),
        .testTarget(name: "NavlogDaemonTests", dependencies: ["NavlogDaemon", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogJournal", "NavlogTestSupport", "navlogd", "navlog"]),
        .testTarget(name: "NavlogHTTPClientTests", dependencies: ["NavlogHTTPClient"]),
        // RemoteEventSink and the journal upload against a built navlogd.
        .testTarget(name: "NavlogRemoteTests", dependencies: ["NavlogRemote", "NavlogEvents", "NavlogJournal", "NavlogTestSupport", "navlogd"]),
        // Loads the built libNavlogSQLite.so into the sqlite3 CLI and Python's sqlite3.
        .testTarget(name: "NavlogSQLiteTests", dependencies: ["NavlogEvents", "NavlogJournal", "NavlogTestSupport", "navlog"]),
        // The fault suite, load and fuzzing (scripts/faults runs it alone; scripts/test --fast
        // skips it): navlogd under kill -9, full disks and signals, hostile input, damaged journals.
        .testTarget(
            name: "NavlogFaultTests",
            dependencies: ["NavlogAnalysis", "NavlogDaemon", "NavlogEvents", "NavlogHost", "NavlogJournal", "NavlogRemote", "NavlogTesting", "NavlogTestSupport", "navlogd", "navlog"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
