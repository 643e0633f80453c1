-- navlog events, one row per event (navlog export --format clickhouse --table events).
-- time is wall-clock UTC; mono_ns is monotonic, for durations.
-- payload is the event's payload as JSON text: read it with JSONExtract*(payload, 'key').
CREATE TABLE IF NOT EXISTS navlog_events
(
    app          LowCardinality(String),
    run          LowCardinality(String),
    session      String,
    session_seq  UInt64,
    seq          UInt64,
    time         DateTime64(9, 'UTC') CODEC(Delta, ZSTD),
    mono_ns      UInt64 CODEC(Delta, ZSTD),
    kind         LowCardinality(String),
    subject      String,
    subject_type LowCardinality(String),
    screen       String,
    screen_type  LowCardinality(String),
    cause        Nullable(UInt64),
    parent       String,
    payload      String CODEC(ZSTD(3))
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (app, run, session, session_seq);

-- navlog visits, one row per stretch of time a screen was the visible one, with the
-- definitions of docs/REPORT.md (navlog export --format clickhouse --table visits).
-- from_screen_type is the type of the visit before in the same session, '' for the first.
-- censored = 1 for each session's last visit, cut off by its end: dwell_ns is no dwell time.
-- load_ms and load_outcome time a screen instance's first visit to its screen.ready:
-- loaded, empty or failed with load_ms; abandoned (left first) or censored (still loading
-- at the end) without; '' for every other visit.
CREATE TABLE IF NOT EXISTS navlog_visits
(
    app              LowCardinality(String),
    run              LowCardinality(String),
    session          String,
    visit            UInt32,
    screen           String,
    screen_type      LowCardinality(String),
    from_screen_type LowCardinality(String),
    start_time       DateTime64(9, 'UTC') CODEC(Delta, ZSTD),
    start_mono_ns    UInt64 CODEC(Delta, ZSTD),
    end_mono_ns      UInt64 CODEC(Delta, ZSTD),
    dwell_ns         UInt64 CODEC(T64, ZSTD),
    session_complete UInt8,
    censored         UInt8,
    load_ms          Nullable(Float64),
    load_outcome     LowCardinality(String)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(start_time)
ORDER BY (app, run, session, visit);
