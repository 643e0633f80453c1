// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "navlog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "NavigationHost", targets: ["NavigationHost"]),
        .library(name: "NavigationTesting", targets: ["NavigationTesting"]),
        .library(name: "FlowAnalysis", targets: ["FlowAnalysis"]),
        .executable(name: "navlog", targets: ["navlog"]),
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
        .target(name: "NavigationHost", dependencies: ["Navigation"]),
        .target(name: "NavigationTesting", dependencies: ["Navigation", "NavigationHost"]),
        // Depends on Navigation (the event model) until the Journal module lands; then Journal.
        .target(name: "FlowAnalysis", dependencies: ["Navigation"]),

        // MARK: - Executables
        .executableTarget(name: "navlog", dependencies: ["Navigation"]),

        // MARK: - Tests
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "NavigationTesting"]),
        .testTarget(name: "NavigationHostTests", dependencies: ["NavigationHost", "NavigationTesting"]),
        .testTarget(name: "FlowAnalysisTests", dependencies: ["FlowAnalysis", "NavigationHost", "NavigationTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
