-- The fleet's own records (issue 5): commands generated for a device (queued until the device next
-- reports: battery devices sleep between reports), the telemetry devices report, and the batch
-- imports of devices from a spreadsheet with their per-row results.

-- A command for one device ("下发指令"): its type (device_command_type dictionary), parameters, the
-- text and the hex frame sent to the device, and where it stands (device_command_state).
CREATE TABLE device_command (
  id serial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  command_type text NOT NULL,
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  command_text text NOT NULL,
  command_hex text NOT NULL CHECK (command_hex ~ '^[0-9A-F]+$'),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'acknowledged', 'failed')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  acknowledged_at timestamptz
);
CREATE INDEX device_command_device_idx ON device_command (device_id, created_at DESC);

-- What a device reported: one row per report. `metrics` holds the product's own readings
-- (flow, pressure, level, water quality, humidity, smoke …); battery, signal and the board
-- temperature are common to every device.
CREATE TABLE device_telemetry (
  device_id integer NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  reported_at timestamptz NOT NULL,
  metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
  battery_level smallint CHECK (battery_level BETWEEN 0 AND 100),
  signal_strength smallint CHECK (signal_strength BETWEEN 0 AND 31),
  temperature numeric(5, 1),
  PRIMARY KEY (device_id, reported_at)
);

-- A batch import ("批量导入"): who imported which file into which organisation's scope, how many
-- rows went in, and (device_import_error) why each of the others did not.
CREATE TABLE device_import (
  id serial PRIMARY KEY,
  -- the organisation selected when importing: the import shows to whoever works over it
  organization_code text NOT NULL REFERENCES organization (code),
  file_name text NOT NULL DEFAULT '',
  file_path text,
  total integer NOT NULL CHECK (total >= 0),
  inserted integer NOT NULL CHECK (inserted >= 0),
  failed integer NOT NULL CHECK (failed >= 0),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_import_organization_idx ON device_import (organization_code, created_at DESC);

CREATE TABLE device_import_error (
  import_id integer NOT NULL REFERENCES device_import (id) ON DELETE CASCADE,
  -- the spreadsheet row (the header is row 1)
  row_number integer NOT NULL CHECK (row_number >= 2),
  message text NOT NULL,
  PRIMARY KEY (import_id, row_number)
);
