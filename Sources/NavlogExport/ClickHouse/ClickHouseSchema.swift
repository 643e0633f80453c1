/// The ClickHouse tables navlog exports into: `CREATE TABLE` statements for `navlog_events` and
/// `navlog_visits`, the columns of the `JSONEachRow` rows ``ClickHouseEncoder`` writes.
///
/// `Config/clickhouse/schema.sql` holds the same text; the tests keep the two equal.
public enum ClickHouseSchema {
    /// The columns of `navlog_events`, in order, with their types.
    public static let eventColumns: [(name: String, type: String)] = [
        ("app", "LowCardinality(String)"),
        ("run", "LowCardinality(String)"),
        ("session", "String"),
        ("session_seq", "UInt64"),
        ("seq", "UInt64"),
        ("time", "DateTime64(9, 'UTC') CODEC(Delta, ZSTD)"),
        ("mono_ns", "UInt64 CODEC(Delta, ZSTD)"),
        ("kind", "LowCardinality(String)"),
        ("subject", "String"),
        ("subject_type", "LowCardinality(String)"),
        ("screen", "String"),
        ("screen_type", "LowCardinality(String)"),
        ("cause", "Nullable(UInt64)"),
        ("parent", "String"),
        ("payload", "String CODEC(ZSTD(3))"),
    ]

    /// The columns of `navlog_visits`, in order, with their types.
    public static let visitColumns: [(name: String, type: String)] = [
        ("app", "LowCardinality(String)"),
        ("run", "LowCardinality(String)"),
        ("session", "String"),
        ("visit", "UInt32"),
        ("screen", "String"),
        ("screen_type", "LowCardinality(String)"),
        ("from_screen_type", "LowCardinality(String)"),
        ("start_time", "DateTime64(9, 'UTC') CODEC(Delta, ZSTD)"),
        ("start_mono_ns", "UInt64 CODEC(Delta, ZSTD)"),
        ("end_mono_ns", "UInt64 CODEC(Delta, ZSTD)"),
        ("dwell_ns", "UInt64 CODEC(T64, ZSTD)"),
        ("session_complete", "UInt8"),
        ("censored", "UInt8"),
        ("load_ms", "Nullable(Float64)"),
        ("load_outcome", "LowCardinality(String)"),
    ]

    /// Both `CREATE TABLE` statements, each ending in `;`.
    public static var createStatements: String {
        """
        -- navlog events, one row per event (navlog export --format clickhouse --table events).
        -- time is wall-clock UTC; mono_ns is monotonic, for durations.
        -- payload is the event's payload as JSON text: read it with JSONExtract*(payload, 'key').
        \(createTable("navlog_events", columns: eventColumns, orderBy: "(app, run, session, session_seq)", partitionBy: "toYYYYMM(time)"))

        -- navlog visits, one row per stretch of time a screen was the visible one, with the
        -- definitions of docs/REPORT.md (navlog export --format clickhouse --table visits).
        -- from_screen_type is the type of the visit before in the same session, '' for the first.
        -- censored = 1 for each session's last visit, cut off by its end: dwell_ns is no dwell time.
        -- load_ms and load_outcome time a screen instance's first visit to its screen.ready:
        -- loaded, empty or failed with load_ms; abandoned (left first) or censored (still loading
        -- at the end) without; '' for every other visit.
        \(createTable("navlog_visits", columns: visitColumns, orderBy: "(app, run, session, visit)", partitionBy: "toYYYYMM(start_time)"))

        """
    }

    private static func createTable(_ name: String, columns: [(name: String, type: String)], orderBy: String, partitionBy: String) -> String {
        let width = columns.map(\.name.count).max() ?? 0
        let lines = columns.map { "    \($0.name)\(String(repeating: " ", count: width - $0.name.count + 1))\($0.type)" }
        return """
            CREATE TABLE IF NOT EXISTS \(name)
            (
            \(lines.joined(separator: ",\n"))
            )
            ENGINE = MergeTree
            PARTITION BY \(partitionBy)
            ORDER BY \(orderBy);
            """
    }
}
