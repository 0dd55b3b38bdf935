-- Fault reports (故障上报) that an administrator turns into repair orders, and repair batches
-- (批量维修): one repair order per device of the batch, followed together.
CREATE TABLE repair_batch (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  fault_type text NOT NULL,
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('urgent', 'high', 'normal', 'low')),
  description text NOT NULL DEFAULT '',
  creator_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  assignee_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  deadline_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repair_batch_tenant_idx ON repair_batch (tenant_code, created_at);

ALTER TABLE work_order ADD CONSTRAINT work_order_batch_fk FOREIGN KEY (batch_id) REFERENCES repair_batch (id) ON DELETE SET NULL;

CREATE TABLE repair_report (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  device_code text NOT NULL,
  -- repair_fault_type dictionary
  fault_type text NOT NULL,
  description text NOT NULL,
  contact_phone text NOT NULL DEFAULT '',
  reporter_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  -- repair_report_state dictionary
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'converted')),
  order_id integer REFERENCES work_order (id) ON DELETE SET NULL,
  converted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repair_report_tenant_idx ON repair_report (tenant_code, created_at);
CREATE INDEX repair_report_reporter_idx ON repair_report (reporter_id);
