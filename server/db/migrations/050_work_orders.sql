-- Work orders of the work side (issue 6): repair, construction, engineering survey (exploration)
-- and maintenance orders in one table, each moving through the work_order_state dictionary
-- (created, assigned, accepted, in_progress, completed, audited, closed, rejected). An order
-- belongs to one organisation and, through it, one tenant (kept on the row for scoping); the
-- implementer it is assigned to sees it and acts on it, nobody else of the implementer roles.
-- Devices and people are referred to loosely: a device code stays on the order after the device
-- is purged, and a deleted user leaves the order unassigned rather than blocking the delete.
CREATE TABLE work_order (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  -- work_order_type dictionary (patrol tasks live in patrol_task)
  type text NOT NULL CHECK (type IN ('repair', 'construction', 'exploration', 'maintenance')),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  state text NOT NULL CHECK (state IN ('created', 'assigned', 'accepted', 'in_progress', 'completed', 'audited', 'closed', 'rejected')),
  -- work_order_source dictionary; source_code names the alarm record, fault report or patrol task
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'alarm', 'report', 'patrol')),
  source_code text,
  -- work_order_priority dictionary
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('urgent', 'high', 'normal', 'low')),
  -- repair_fault_type dictionary (repair orders)
  fault_type text,
  -- maintenance_type dictionary (maintenance orders)
  maintenance_type text,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  device_code text,
  address text NOT NULL DEFAULT '',
  contact_name text NOT NULL DEFAULT '',
  contact_phone text NOT NULL DEFAULT '',
  batch_id integer,
  creator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  assignee_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  plan_start_at timestamptz,
  deadline_at timestamptz,
  assigned_at timestamptz,
  accepted_at timestamptz,
  started_at timestamptz,
  completed_at timestamptz,
  audited_at timestamptz,
  closed_at timestamptz,
  -- what the implementer found and did
  result text NOT NULL DEFAULT '',
  fault_cause text NOT NULL DEFAULT '',
  cost numeric(10, 2) CHECK (cost >= 0),
  -- audit_state dictionary (construction orders and audited repair orders)
  audit_state text CHECK (audit_state IN ('pending', 'approved', 'rejected')),
  audit_opinion text NOT NULL DEFAULT '',
  reject_reason text NOT NULL DEFAULT '',
  close_reason text NOT NULL DEFAULT '',
  -- the dynamic form (survey, construction and operations templates) the order was filled with
  form_template_id integer,
  form_data jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_order_scope_idx ON work_order (type, tenant_code, state);
CREATE INDEX work_order_assignee_idx ON work_order (type, assignee_id);
CREATE INDEX work_order_organization_idx ON work_order (organization_code);
CREATE INDEX work_order_device_idx ON work_order (device_code);
CREATE INDEX work_order_batch_idx ON work_order (batch_id);
CREATE INDEX work_order_created_idx ON work_order (created_at);

-- Every transition of an order (and every edit), shown on its detail page.
CREATE TABLE work_order_history (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES work_order (id) ON DELETE CASCADE,
  -- work_order_action dictionary
  action text NOT NULL,
  from_state text,
  to_state text NOT NULL,
  operator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX work_order_history_order_idx ON work_order_history (order_id, created_at);
