-- Funnel conversion, as `navlog report --funnel A,B,C` computes it (docs/REPORT.md, "Funnel").
--
-- The steps are a query parameter, for example:
--   clickhouse-client --param_steps="['Master','Detail','Share']" --queries-file Config/clickhouse/funnel.sql
--
-- Each step matches the first visit after the previous step's match, with other screens
-- allowed in between: arrayFold walks a session's visits in order and counts how many steps
-- it reached. A session counts for every step up to the one it reached.
--   sessions         sessions that reached the step
--   conversion       relative to step 1
--   step_conversion  relative to the step before (1 for step 1 when anyone entered)
--   drop_off         sessions that reached the step but not the next (0 for the last step)
WITH per_session AS
(
    SELECT
        run,
        session,
        arrayFold(
            (reached, screen) -> if(reached < length({steps:Array(String)}) AND screen = {steps:Array(String)}[reached + 1], reached + 1, reached),
            arrayMap(visit -> visit.2, arraySort(visit -> visit.1, groupArray((visit, screen_type)))),
            toUInt64(0)
        ) AS reached
    FROM navlog_visits
    GROUP BY run, session
)
SELECT
    step,
    {steps:Array(String)}[step] AS screen,
    countIf(reached >= step) AS sessions,
    if(countIf(reached >= 1) = 0, 0, round(sessions / countIf(reached >= 1), 4)) AS conversion,
    if(step = 1, if(sessions > 0, 1, 0), if(countIf(reached >= step - 1) = 0, 0, round(sessions / countIf(reached >= step - 1), 4))) AS step_conversion,
    if(step = length({steps:Array(String)}), 0, sessions - countIf(reached >= step + 1)) AS drop_off
FROM per_session
ARRAY JOIN arrayEnumerate({steps:Array(String)}) AS step
GROUP BY step
ORDER BY step;
