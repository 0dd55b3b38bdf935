-- The server's upgrade clock (server/upgradeClock.ts) looks for the unfinished firmware tasks every
-- few seconds: a partial index holds just those, however many finished tasks a platform keeps.
CREATE INDEX upgrade_task_active_idx ON upgrade_task (id) WHERE state IN ('pending', 'upgrading');
