-- Dwell times per screen type, as `navlog report` computes them (docs/REPORT.md, "Visit and
-- dwell time", "Statistics").
--
-- A visit runs from the moment a screen becomes visible to the moment it stops, on the
-- monotonic clock. Each session's last visit is cut off by session.end, or by its last event
-- when it has none (censored = 1): it says when the session stopped, not how long the user
-- chose to stay, so it is counted in censored_visits and left out of the figures, as in the
-- report. A screen type whose visits were all cut off has n = 0 and NULL figures.
--
-- The median is the middle value, or the mean of the two middle values:
-- quantileExactInclusive(0.5) (Excel's PERCENTILE.INC) is exactly that. Durations are in
-- milliseconds rounded to the microsecond with halves up, like the report's *_ms: floor((ns +
-- 500) / 1000) / 1000, since round(x, 3) would round a tie to even (38,500 ns to 0.038).
-- (The report keeps at most dwellSampleLimit = 100 000 samples per screen type; beyond that
-- its median comes from a reservoir sample and may differ slightly from this exact one.)
-- censored_visits is the report's dwell[].censored, named so as not to hide the column.
SELECT
    screen_type AS screen,
    countIf(censored = 0) AS n,
    if(n = 0, NULL, floor((quantileExactInclusiveIf(0.5)(dwell_ns, censored = 0) + 500) / 1000) / 1000) AS median_ms,
    if(n = 0, NULL, floor((minIf(dwell_ns, censored = 0) + 500) / 1000) / 1000) AS min_ms,
    if(n = 0, NULL, floor((maxIf(dwell_ns, censored = 0) + 500) / 1000) / 1000) AS max_ms,
    countIf(censored = 1) AS censored_visits
FROM navlog_visits
GROUP BY screen_type
ORDER BY n DESC, censored_visits DESC, screen;
