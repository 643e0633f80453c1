-- Dwell times per screen type, as `navlog report` computes them (docs/REPORT.md, "Visit and
-- dwell time", "Statistics").
--
-- A visit runs from the moment a screen becomes visible to the moment it stops, on the
-- monotonic clock; the last visit of a session lasts until session.end, or its last event
-- when it has none (session_complete = 0). Every visit counts, as in the report.
--
-- The median is the middle value, or the mean of the two middle values:
-- quantileExactInclusive(0.5) (Excel's PERCENTILE.INC) is exactly that. Durations are in
-- milliseconds rounded to the microsecond, like the report's *_ms.
-- (The report keeps at most dwellSampleLimit = 100 000 samples per screen type; beyond that
-- its median comes from a reservoir sample and may differ slightly from this exact one.)
SELECT
    screen_type AS screen,
    count() AS n,
    round(quantileExactInclusive(0.5)(dwell_ns) / 1e6, 3) AS median_ms,
    round(min(dwell_ns) / 1e6, 3) AS min_ms,
    round(max(dwell_ns) / 1e6, 3) AS max_ms
FROM navlog_visits
GROUP BY screen_type
ORDER BY n DESC, screen;
