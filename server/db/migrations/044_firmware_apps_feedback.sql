-- Firmware over the air, the mobile app's versions, user feedback and online configuration screens
-- (issue 5).

-- A firmware package of a product ("升级包"). A null tenant is the platform's package, offered to
-- every tenant running the product; a tenant's own build is seen by that tenant only. A
-- differential package patches devices that run `base_version` to `version`.
CREATE TABLE upgrade_package (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  product_code text NOT NULL REFERENCES product (code),
  tenant_code text REFERENCES organization (code),
  version text NOT NULL CHECK (version ~ '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$'),
  -- ota_package_type dictionary: full, diff
  package_type text NOT NULL CHECK (package_type IN ('full', 'diff')),
  base_version text CHECK (base_version ~ '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$'),
  -- where the devices download it (a file stored by upgrade.package.upload)
  file_url text NOT NULL,
  file_name text NOT NULL DEFAULT '',
  file_size integer NOT NULL CHECK (file_size > 0),
  checksum_algorithm text NOT NULL CHECK (checksum_algorithm IN ('MD5', 'SHA256')),
  checksum text NOT NULL CHECK (checksum ~ '^[0-9a-f]+$'),
  description text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((package_type = 'diff') = (base_version IS NOT NULL))
);
CREATE UNIQUE INDEX upgrade_package_version_idx ON upgrade_package (product_code, COALESCE(tenant_code, ''), version, package_type, COALESCE(base_version, ''));
CREATE INDEX upgrade_package_tenant_idx ON upgrade_package (tenant_code);

-- An upgrade task ("升级任务"): one package pushed to chosen devices of an organisation. The
-- package's name and version are kept on the task, so its history outlives the package. `state`
-- (ota_task_state dictionary) is derived from the task's devices and kept up to date as they move.
CREATE TABLE upgrade_task (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  package_id integer REFERENCES upgrade_package (id) ON DELETE SET NULL,
  package_name text NOT NULL,
  package_version text NOT NULL,
  product_code text NOT NULL REFERENCES product (code),
  -- null for a platform-wide task
  tenant_code text REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  state text NOT NULL CHECK (state IN ('pending', 'upgrading', 'succeeded', 'failed', 'cancelled')),
  description text NOT NULL DEFAULT '',
  -- when the devices are first offered the package (null: at once)
  scheduled_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  cancelled_at timestamptz,
  cancelled_by text,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upgrade_task_organization_idx ON upgrade_task (organization_code, state);
CREATE INDEX upgrade_task_package_idx ON upgrade_task (package_id);

-- One device of a task and its current attempt: queued at `queued_at`, picked up when the device
-- next checks in, downloading and installing (`progress` 0–100), then succeeded or failed.
CREATE TABLE upgrade_task_device (
  task_id integer NOT NULL REFERENCES upgrade_task (id) ON DELETE CASCADE,
  -- purging a device from the recycle bin takes its upgrade history with it
  device_code text NOT NULL REFERENCES device (code) ON DELETE CASCADE,
  from_version text NOT NULL DEFAULT '',
  state text NOT NULL CHECK (state IN ('pending', 'upgrading', 'succeeded', 'failed', 'cancelled')),
  progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  attempts smallint NOT NULL DEFAULT 1 CHECK (attempts BETWEEN 1 AND 20),
  queued_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  error_message text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, device_code)
);
CREATE INDEX upgrade_task_device_active_idx ON upgrade_task_device (device_code) WHERE state IN ('pending', 'upgrading');

-- The mobile app's releases ("应用版本"): a forced update (a new store build every user below
-- `min_supported_version` must install) or a hot update (a resource bundle patched in place).
CREATE TABLE app_version (
  id serial PRIMARY KEY,
  -- app_platform dictionary: android, ios
  platform text NOT NULL CHECK (platform IN ('android', 'ios')),
  -- app_update_type dictionary: forced, hot
  update_type text NOT NULL CHECK (update_type IN ('forced', 'hot')),
  version text NOT NULL CHECK (version ~ '^[0-9]+\.[0-9]+\.[0-9]+$'),
  build_number integer NOT NULL CHECK (build_number > 0),
  download_url text NOT NULL,
  package_size integer CHECK (package_size > 0),
  release_notes text NOT NULL DEFAULT '',
  min_supported_version text CHECK (min_supported_version ~ '^[0-9]+\.[0-9]+\.[0-9]+$'),
  published boolean NOT NULL DEFAULT false,
  published_at timestamptz,
  published_by text,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (platform, update_type, version),
  UNIQUE (platform, update_type, build_number)
);

-- Feedback from the app's users ("APP反馈") and from other channels ("其他反馈"), answered by the
-- tenant's staff or the platform's.
CREATE TABLE feedback (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  -- feedback_type dictionary: app, other
  feedback_type text NOT NULL CHECK (feedback_type IN ('app', 'other')),
  tenant_code text REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  user_name text NOT NULL,
  contact text NOT NULL DEFAULT '',
  -- app: the app version and the phone; other: the channel it came in by (hotline, mail…)
  app_version text NOT NULL DEFAULT '',
  phone_model text NOT NULL DEFAULT '',
  channel text NOT NULL DEFAULT '',
  content text NOT NULL,
  images text[] NOT NULL DEFAULT '{}',
  -- feedback_state dictionary: pending, replied
  state text NOT NULL CHECK (state IN ('pending', 'replied')),
  reply text,
  replied_by text,
  replied_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_organization_idx ON feedback (organization_code, feedback_type, state);
CREATE INDEX feedback_created_idx ON feedback (created_at DESC);

-- Online configuration screens ("在线组态"): a canvas of widgets (gauges, values, switches,
-- trends, tanks…) bound to device codes and their metrics.
CREATE TABLE online_configuration (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  tenant_code text REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  description text NOT NULL DEFAULT '',
  canvas jsonb NOT NULL DEFAULT '{"width": 1920, "height": 1080, "background": "#0b1d33", "widgets": []}'::jsonb,
  published boolean NOT NULL DEFAULT false,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX online_configuration_organization_idx ON online_configuration (organization_code);
