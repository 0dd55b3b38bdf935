-- Issue 31, section 2: firmware goes to devices over the air instead of moving along by a clock.
-- An upgrade task sends each target an `ota` command with a signed, expiring download of the
-- package file; the device's reports of its progress move the target (server/ingest/firmware*.ts).

-- A firmware image uploaded to the platform (upgrade.package.upload), kept in the file folder under
-- `path` (firmware/yyyy/mm/<32 hex>.bin). Its size and SHA-256 are the platform's own reading of the
-- bytes, never the uploader's word; a package that takes the file copies them.
CREATE TABLE firmware_file (
  path text PRIMARY KEY CHECK (path ~ '^firmware/[0-9]{4}/[0-9]{2}/[0-9a-f]{32}\.bin$'),
  -- the uploader's tenant (null: platform staff above the tenants)
  tenant_code text REFERENCES organization (code),
  user_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  original_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The package's file on the platform (null: only an external download address, file_url).
ALTER TABLE upgrade_package ADD COLUMN file_path text REFERENCES firmware_file (path);

-- How long each target of a task has to finish, from the moment it is offered the package.
ALTER TABLE upgrade_task ADD COLUMN time_limit_minutes integer NOT NULL DEFAULT 1440 CHECK (time_limit_minutes BETWEEN 5 AND 10080);

-- A target's current attempt: the `ota` command that offered it (null until its time comes), the
-- phase the device last reported (downloading, installing; '' before the first report), and when
-- the attempt fails unless it has finished (queued_at + the task's time limit; the rows already
-- there get theirs from their task).
ALTER TABLE upgrade_task_device ADD COLUMN command_id integer REFERENCES device_command (id) ON DELETE SET NULL;
ALTER TABLE upgrade_task_device ADD COLUMN phase text NOT NULL DEFAULT '' CHECK (phase IN ('', 'downloading', 'installing'));
ALTER TABLE upgrade_task_device ADD COLUMN deadline_at timestamptz;
UPDATE upgrade_task_device td SET deadline_at = td.queued_at + make_interval(mins => t.time_limit_minutes)
  FROM upgrade_task t WHERE t.id = td.task_id;

-- What the periodic check looks for: targets whose time has come and that were not offered the
-- package yet, and unfinished targets past their deadline.
CREATE INDEX upgrade_task_device_due_idx ON upgrade_task_device (queued_at) WHERE state = 'pending' AND command_id IS NULL;
CREATE INDEX upgrade_task_device_deadline_idx ON upgrade_task_device (deadline_at) WHERE state IN ('pending', 'upgrading');

-- The upgrade clock (migration 091) is gone: nothing looks for the unfinished tasks themselves.
DROP INDEX upgrade_task_active_idx;
