// swift-tools-version:6.0
import PackageDescription

// The layers, bottom up (docs/DESIGN.md draws them):
//   NavlogEvents                       the event model: events, JSON, privacy, replay, leaks
//   NavlogRuntime                      coordinators, containers, patterns, views: emits events
//   NavlogHost, NavlogSampleApps       sessions that host apps; the four seed apps
//   NavlogTesting                      NavigationTestStore for apps' own tests
//   NavlogJournal                      compressed SQLite journals of events
//   NavlogAnalysis, NavlogExport       reports and diffs; encoders for other engines
//   NavlogDaemon                       navlogd's HTTP API over hosted sessions
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
        .library(name: "NavlogDaemon", targets: ["NavlogDaemon"]),
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

        // MARK: - Libraries
        .target(name: "NavlogEvents", dependencies: ["CCrypto"]),
        .target(name: "NavlogRuntime", dependencies: ["NavlogEvents"]),
        .target(name: "NavlogHost", dependencies: ["NavlogEvents", "NavlogRuntime"]),
        .target(name: "NavlogTesting", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost"]),
        .target(name: "NavlogSampleApps", dependencies: ["NavlogEvents", "NavlogRuntime"]),
        .target(name: "NavlogJournal", dependencies: ["NavlogEvents", "CSQLite", "CZlib"]),
        .target(name: "NavlogAnalysis", dependencies: ["NavlogEvents", "NavlogJournal"]),
        // Encoders for engines beyond one machine (OTLP, Chrome trace, ClickHouse); the daemon
        // reuses the OTLP encoder for its push.
        .target(name: "NavlogExport", dependencies: ["NavlogEvents"]),
        .target(name: "NavlogDaemon", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogJournal", "NavlogExport", "CMicroHTTPD"]),

        // MARK: - Executables
        .executableTarget(name: "navlog", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogJournal", "NavlogSampleApps", "NavlogAnalysis", "NavlogDaemon", "NavlogExport"]),
        .executableTarget(name: "navlogd", dependencies: ["NavlogDaemon", "NavlogHost", "NavlogSampleApps"]),
        .executableTarget(
            name: "navlog-bench",
            dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogJournal", "CSQLite", "CZlib", "CMicroHTTPD", "NavlogHost", "NavlogDaemon", "NavlogSampleApps"]
        ),
        // A writer child process for NavlogJournalTests (the kill -9 and disk-full tests).
        .executableTarget(name: "journal-test-child", dependencies: ["NavlogEvents", "NavlogJournal"]),

        // MARK: - Tests
        // A small app shared by the tests of hosts and analysis.
        .target(name: "NavlogTestFixtures", dependencies: ["NavlogRuntime"], path: "Tests/NavlogTestFixtures"),
        .testTarget(name: "NavlogEventsTests", dependencies: ["NavlogEvents"]),
        .testTarget(name: "NavlogRuntimeTests", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogTesting"]),
        .testTarget(name: "NavlogHostTests", dependencies: ["NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogTestFixtures"]),
        .testTarget(name: "NavlogJournalTests", dependencies: ["NavlogEvents", "NavlogJournal", "NavlogTesting", "journal-test-child"]),
        .testTarget(name: "NavlogSampleAppsTests", dependencies: ["NavlogSampleApps", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting"]),
        .testTarget(name: "NavlogAnalysisTests", dependencies: ["NavlogAnalysis", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogTestFixtures"]),
        .testTarget(name: "ReadmeExampleTests", dependencies: ["NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogJournal"]),
        .testTarget(name: "NavlogExportTests", dependencies: ["NavlogExport", "NavlogJournal", "NavlogEvents", "NavlogRuntime", "navlog"]),
        .testTarget(name: "NavlogCLITests", dependencies: ["NavlogEvents", "NavlogTesting", "NavlogJournal", "navlog"]),
        .testTarget(name: "NavlogDaemonTests", dependencies: ["NavlogDaemon", "NavlogEvents", "NavlogRuntime", "NavlogHost", "NavlogTesting", "NavlogJournal", "navlogd", "navlog"]),
    ],
    swiftLanguageModes: [.v6]
)
