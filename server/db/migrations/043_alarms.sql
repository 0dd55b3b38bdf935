-- Alarms of the device side (issue 5): the rules a tenant configures, the alarm records raised by
-- devices or by the platform's monitoring, a tenant's own device settings for a shared product and
-- which device tags the device dashboards show.

-- A tenant's device settings for a product of the platform catalogue (report interval, heartbeat,
-- low-battery and temperature thresholds). A tenant's own products keep theirs in product.settings.
CREATE TABLE product_tenant_setting (
  product_code text NOT NULL REFERENCES product (code) ON DELETE CASCADE,
  tenant_code text NOT NULL REFERENCES organization (code),
  settings jsonb NOT NULL,
  updated_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (product_code, tenant_code)
);

-- Alarm configuration ("告警配置"): when a metric of a device crosses a threshold for a while.
CREATE TABLE alarm_rule (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  -- null: every product of the tenant
  product_code text REFERENCES product (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  -- alarm_type dictionary: threshold, offline, fault, battery
  alarm_type text NOT NULL,
  -- alarm_level dictionary: 1 紧急 … 4 提示
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 4),
  -- alarm_metric dictionary: temperature, humidity, battery, pressure, level, flow, ph, turbidity, smoke, signal, offline_minutes
  metric text NOT NULL,
  operator text NOT NULL CHECK (operator IN ('gt', 'lt', 'ge', 'le', 'eq')),
  threshold numeric(12, 2) NOT NULL,
  duration_minutes integer NOT NULL DEFAULT 0 CHECK (duration_minutes BETWEEN 0 AND 10080),
  -- notification_channel_type dictionary values
  notify_channels text[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alarm_rule_tenant_idx ON alarm_rule (tenant_code);

-- Alarm records ("告警记录" from devices, "监控告警" from the platform's monitoring). Other parts
-- of the platform (work orders, the big screen) read this shape.
CREATE TABLE alarm_record (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  rule_id integer REFERENCES alarm_rule (id) ON DELETE SET NULL,
  -- purging a device from the recycle bin takes its alarm history with it
  device_code text NOT NULL REFERENCES device (code) ON DELETE CASCADE,
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  alarm_type text NOT NULL,
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 4),
  -- alarm_state dictionary: pending, processing, resolved, recovered, ignored
  state text NOT NULL CHECK (state IN ('pending', 'processing', 'resolved', 'recovered', 'ignored')),
  title text NOT NULL,
  content text NOT NULL DEFAULT '',
  metric_value numeric(12, 2),
  triggered_at timestamptz NOT NULL,
  recovered_at timestamptz,
  handled_by text,
  handled_at timestamptz,
  handle_remark text,
  repair_order_code text,
  source text NOT NULL DEFAULT 'device' CHECK (source IN ('device', 'monitoring')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alarm_record_scope_idx ON alarm_record (organization_code, triggered_at DESC);
CREATE INDEX alarm_record_time_idx ON alarm_record (triggered_at DESC);
CREATE INDEX alarm_record_state_idx ON alarm_record (state, source);
CREATE INDEX alarm_record_device_idx ON alarm_record (device_code);
CREATE INDEX alarm_record_tenant_idx ON alarm_record (tenant_code, source);

-- Which device tags and labels the device dashboards and the device detail show, per tenant.
CREATE TABLE tag_display_config (
  tenant_code text PRIMARY KEY REFERENCES organization (code),
  config jsonb NOT NULL,
  updated_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
