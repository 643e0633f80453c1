-- Load times per screen type (time to full display), as the `load` section of
-- `navlog report --output json` computes them.
--
-- A screen instance's first visit times its load, from the visit's start to the screen's
-- screen.ready when that comes during the visit: load_ms, and load_outcome loaded, empty or
-- failed. A first visit that ends before it is 'abandoned'; one still loading when the
-- session ends is 'censored' and left out of the figures. Every other visit, and every visit
-- of a session recorded without screen.ready, has load_outcome = ''.
--
--   n                loads that finished during the first visit, whatever their outcome
--   median_ms        the middle value, or the mean of the two middle values:
--                    quantileExactInclusive(0.5), as in dwell.sql
--   p90_ms           the nearest rank: the value at rank ceil(0.9 n) of the sorted times
--   abandoned_share  abandoned / (n + abandoned), rounded to 4 places
--   failed_share     failed / n, rounded to 4 places
-- Times are in milliseconds rounded to the microsecond with halves up, like the report's *_ms:
-- worked out on whole nanoseconds (round(load_ms * 1e6)), then floor((ns + 500) / 1000) / 1000,
-- since round(x, 3) would round a tie to even. (Beyond 100 000 loads of one screen type the
-- report takes its median and p90 from a sample.)
SELECT
    screen_type AS screen,
    countIf(load_ms IS NOT NULL) AS n,
    if(n = 0, NULL, floor((quantileExactInclusive(0.5)(round(load_ms * 1e6)) + 500) / 1000) / 1000) AS median_ms,
    if(n = 0, NULL, floor((arraySort(groupArrayIf(round(assumeNotNull(load_ms) * 1e6), load_ms IS NOT NULL))[toUInt64(ceil(0.9 * n))] + 500) / 1000) / 1000) AS p90_ms,
    countIf(load_outcome = 'loaded') AS loaded,
    countIf(load_outcome = 'empty') AS empty,
    countIf(load_outcome = 'failed') AS failed,
    countIf(load_outcome = 'abandoned') AS abandoned,
    countIf(load_outcome = 'censored') AS censored,
    if(n + abandoned = 0, 0, round(abandoned / (n + abandoned), 4)) AS abandoned_share,
    if(n = 0, 0, round(failed / n, 4)) AS failed_share
FROM navlog_visits
WHERE load_outcome != ''
GROUP BY screen_type
ORDER BY n + abandoned DESC, screen;
