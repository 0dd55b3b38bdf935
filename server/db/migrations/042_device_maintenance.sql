-- Device maintenance (issue 5): the errors the platform detects on devices ("异常设备") and how
-- they were handled, a daily health score per device for the health trend, the wake-ups of
-- sleeping devices, and the cameras of video monitoring ("视频监控"). Gateways need no table of
-- their own: they are the devices whose product has node_type 'gateway'.

-- A device error ("异常"): detected by the platform, handled by staff or sent to repair. Work
-- orders arrive in issue 6; until then toRepair records the generated repair order code.
CREATE TABLE device_error (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  -- purging a device from the recycle bin takes its error history with it
  device_code text NOT NULL REFERENCES device (code) ON DELETE CASCADE,
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  -- device_error_type dictionary: offline_long, data_abnormal, signal_weak, report_missing
  error_type text NOT NULL CHECK (error_type IN ('offline_long', 'data_abnormal', 'signal_weak', 'report_missing')),
  description text NOT NULL DEFAULT '',
  occurred_at timestamptz NOT NULL,
  -- device_error_state dictionary: pending, handled, repairing
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'handled', 'repairing')),
  handled_by text,
  handled_at timestamptz,
  handle_remark text,
  repair_order_code text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_error_scope_idx ON device_error (organization_code, occurred_at DESC);
CREATE INDEX device_error_device_idx ON device_error (device_code);
CREATE INDEX device_error_state_idx ON device_error (state);

-- The health score of a device, one sample a day (the trend of the health detail). Only part of
-- the fleet is sampled; the trend of any other device is its current score alone.
CREATE TABLE device_health_sample (
  device_code text NOT NULL REFERENCES device (code) ON DELETE CASCADE,
  sample_date date NOT NULL,
  health_score smallint NOT NULL CHECK (health_score BETWEEN 0 AND 100),
  -- device_health_state dictionary
  health_state text NOT NULL CHECK (health_state IN ('healthy', 'subhealthy', 'faulty')),
  PRIMARY KEY (device_code, sample_date)
);

-- Each wake-up of a sleeping device: who woke it, when, and since when it had slept.
CREATE TABLE device_wake_record (
  id serial PRIMARY KEY,
  device_code text NOT NULL REFERENCES device (code) ON DELETE CASCADE,
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  slept_since timestamptz,
  woken_by text NOT NULL,
  woken_at timestamptz NOT NULL
);
CREATE INDEX device_wake_record_device_idx ON device_wake_record (device_code, woken_at DESC);

-- A camera of video monitoring: where it is, how to reach its stream (rtsp/rtmp or an HLS url),
-- and optionally the device it watches.
CREATE TABLE camera (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  -- camera_brand dictionary: hikvision, dahua, uniview, ezviz, huawei, other
  brand text NOT NULL,
  model text NOT NULL DEFAULT '',
  channel smallint NOT NULL DEFAULT 1 CHECK (channel BETWEEN 1 AND 256),
  stream_url text NOT NULL,
  -- device_online_state dictionary (online, offline)
  online_state text NOT NULL DEFAULT 'offline' CHECK (online_state IN ('online', 'offline')),
  longitude double precision,
  latitude double precision,
  device_code text REFERENCES device (code) ON DELETE SET NULL,
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX camera_scope_idx ON camera (organization_code);
CREATE INDEX camera_device_idx ON camera (device_code);
