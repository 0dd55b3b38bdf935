-- Patrol (巡检): a task sends one patroller along a list of devices within a time window; each
-- device checked leaves a record, and an abnormal one raises a repair order (source patrol).
-- patrol_task_state dictionary: pending, in_progress, completed, overdue (a pending or started
-- task whose window has passed reads as overdue).
CREATE TABLE patrol_task (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  assignee_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  creator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  plan_start_at timestamptz NOT NULL,
  plan_end_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_progress', 'completed', 'overdue')),
  content text NOT NULL DEFAULT '',
  started_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (plan_end_at > plan_start_at)
);
CREATE INDEX patrol_task_tenant_idx ON patrol_task (tenant_code, plan_start_at);
CREATE INDEX patrol_task_assignee_idx ON patrol_task (assignee_id);

CREATE TABLE patrol_task_device (
  task_id integer NOT NULL REFERENCES patrol_task (id) ON DELETE CASCADE,
  device_code text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (task_id, device_code)
);

CREATE TABLE patrol_record (
  id serial PRIMARY KEY,
  task_id integer NOT NULL REFERENCES patrol_task (id) ON DELETE CASCADE,
  device_code text NOT NULL,
  -- patrol_result dictionary
  result text NOT NULL CHECK (result IN ('normal', 'abnormal')),
  description text NOT NULL DEFAULT '',
  patroller_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  repair_order_id integer REFERENCES work_order (id) ON DELETE SET NULL,
  checked_at timestamptz NOT NULL,
  UNIQUE (task_id, device_code)
);
CREATE INDEX patrol_record_checked_idx ON patrol_record (checked_at);
