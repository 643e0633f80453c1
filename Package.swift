// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "navlog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "Journal", targets: ["Journal"]),
        .library(name: "NavigationHost", targets: ["NavigationHost"]),
        .library(name: "NavigationTesting", targets: ["NavigationTesting"]),
        .library(name: "SampleApps", targets: ["SampleApps"]),
        .library(name: "FlowAnalysis", targets: ["FlowAnalysis"]),
        .library(name: "NavlogDaemon", targets: ["NavlogDaemon"]),
        .library(name: "Export", targets: ["Export"]),
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

        // MARK: - Libraries
        .target(name: "Navigation"),
        .target(name: "Journal", dependencies: ["Navigation", "CSQLite", "CZlib"]),
        .target(name: "NavigationHost", dependencies: ["Navigation"]),
        .target(name: "NavigationTesting", dependencies: ["Navigation", "NavigationHost"]),
        .target(name: "SampleApps", dependencies: ["Navigation"]),
        .target(name: "FlowAnalysis", dependencies: ["Journal"]),
        .target(name: "NavlogDaemon", dependencies: ["Navigation", "NavigationHost", "Journal", "CMicroHTTPD", "Export"]),
        // Encoders for engines beyond one machine (OTLP, Chrome trace, ClickHouse); the daemon
        // reuses the OTLP encoder for its push, so this imports neither FlowAnalysis nor the host.
        .target(name: "Export", dependencies: ["Navigation", "Journal"]),

        // MARK: - Executables
        .executableTarget(name: "navlog", dependencies: ["Navigation", "NavigationHost", "Journal", "SampleApps", "FlowAnalysis", "NavlogDaemon", "Export"]),
        .executableTarget(name: "navlogd", dependencies: ["NavlogDaemon", "NavigationHost", "SampleApps"]),
        .executableTarget(
            name: "navlog-bench",
            dependencies: ["Navigation", "Journal", "CSQLite", "CZlib", "CMicroHTTPD", "NavigationHost", "NavlogDaemon", "SampleApps"]
        ),
        // A writer child process for JournalTests (the kill -9 and disk-full tests).
        .executableTarget(name: "journal-test-child", dependencies: ["Navigation", "Journal"]),

        // MARK: - Tests
        // A small app shared by the tests of hosts and analysis.
        .target(name: "NavlogTestFixtures", dependencies: ["Navigation"], path: "Tests/NavlogTestFixtures"),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "NavigationTesting"]),
        .testTarget(name: "NavigationHostTests", dependencies: ["NavigationHost", "NavigationTesting", "NavlogTestFixtures"]),
        .testTarget(name: "JournalTests", dependencies: ["Navigation", "Journal", "NavigationTesting", "journal-test-child"]),
        .testTarget(name: "SampleAppsTests", dependencies: ["SampleApps", "Navigation", "NavigationTesting"]),
        .testTarget(name: "FlowAnalysisTests", dependencies: ["FlowAnalysis", "NavigationHost", "NavigationTesting", "NavlogTestFixtures"]),
        .testTarget(name: "ReadmeExampleTests", dependencies: ["Navigation", "NavigationHost", "NavigationTesting", "Journal"]),
        .testTarget(name: "ExportTests", dependencies: ["Export", "Journal", "Navigation", "navlog"]),
        .testTarget(name: "NavlogCLITests", dependencies: ["Navigation", "NavigationTesting", "Journal", "navlog"]),
        .testTarget(name: "NavlogDaemonTests", dependencies: ["NavlogDaemon", "NavigationHost", "NavigationTesting", "Journal", "navlogd", "navlog"]),
    ],
    swiftLanguageModes: [.v6]
)
