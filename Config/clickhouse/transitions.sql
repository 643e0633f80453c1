-- Transitions with shares, as `navlog report` counts them (docs/REPORT.md, "Transition").
--
-- A transition is two consecutive visits of one session, by screen type: navlog has already
-- merged the navigation events of one operation into one visit change when it wrote
-- navlog_visits, so the previous visit's type (from_screen_type) is the screen left.
-- The share of a transition is its count over every transition leaving the same screen type.
-- A session's end is not a departure: the last visit has no row after it.
--
-- Same columns and order as `transitions[]` of `navlog report --output json`.
SELECT
    from_screen_type AS from_screen,
    screen_type AS to_screen,
    count() AS transitions,
    round(count() / sum(count()) OVER (PARTITION BY from_screen_type), 4) AS share
FROM navlog_visits
WHERE visit > 1
GROUP BY from_screen_type, screen_type
ORDER BY transitions DESC, from_screen, to_screen;
