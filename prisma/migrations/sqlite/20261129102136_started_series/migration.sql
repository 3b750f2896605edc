-- The started_* metric series (issue 37): a row of metric_backfill_state of their own. When the
-- database already holds runs, the runs started before now are counted once by the backfill
-- (lib/run-ledger/started-backfill.ts) and the deriver counts their events from now on; a database
-- without runs has nothing to backfill (cutoff 0, done).
INSERT INTO "metric_backfill_state" ("id", "backfill_before_ms", "done")
SELECT 2,
       CASE WHEN EXISTS (SELECT 1 FROM "runs") THEN CAST(unixepoch('subsec') * 1000 AS REAL) ELSE 0 END,
       CASE WHEN EXISTS (SELECT 1 FROM "runs") THEN false ELSE true END;
