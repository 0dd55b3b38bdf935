-- The device side of the platform (issue 5): product categories, products (a device model and its
-- settings) and the devices themselves. Every device belongs to one organisation (a project or an
-- area below it) and, through it, to one tenant; `tenant_code` is kept on the row so that scoping
-- a list of ten thousand devices is one indexed comparison. Categories and products with a null
-- tenant are the platform's shared catalogue, visible to every tenant.
CREATE TABLE device_category (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  parent_code text REFERENCES device_category (code),
  tenant_code text REFERENCES organization (code),
  sort integer NOT NULL DEFAULT 0,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE product (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  model text NOT NULL,
  category_code text NOT NULL REFERENCES device_category (code),
  tenant_code text REFERENCES organization (code),
  -- gateway_protocol dictionary: mqtt, coap, http, modbus
  protocol text NOT NULL,
  -- product_node_type dictionary: direct, gateway, sub
  node_type text NOT NULL CHECK (node_type IN ('direct', 'gateway', 'sub')),
  battery_powered boolean NOT NULL DEFAULT true,
  manufacturer text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  -- device settings pushed to every device of the product (report interval, thresholds…)
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  published boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE device (
  id serial PRIMARY KEY,
  -- SPEC §5: 12 alphanumerics
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Za-z0-9]{12}$'),
  name text NOT NULL,
  product_code text NOT NULL REFERENCES product (code),
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  imei text NOT NULL DEFAULT '',
  firmware_version text NOT NULL DEFAULT '',
  -- device_online_state dictionary: online, offline, inactive
  online_state text NOT NULL CHECK (online_state IN ('online', 'offline', 'inactive')),
  -- device_health_state dictionary: healthy, subhealthy, faulty
  health_state text NOT NULL DEFAULT 'healthy' CHECK (health_state IN ('healthy', 'subhealthy', 'faulty')),
  health_score smallint NOT NULL DEFAULT 100 CHECK (health_score BETWEEN 0 AND 100),
  -- null for mains-powered devices
  battery_level smallint CHECK (battery_level BETWEEN 0 AND 100),
  signal_strength smallint CHECK (signal_strength BETWEEN 0 AND 31),
  temperature numeric(5, 1),
  longitude double precision,
  latitude double precision,
  address text NOT NULL DEFAULT '',
  gateway_code text REFERENCES device (code),
  iccid text UNIQUE,
  sleeping boolean NOT NULL DEFAULT false,
  sleep_since timestamptz,
  last_seen_at timestamptz,
  activated_at timestamptz,
  -- the recycle bin: a deleted device keeps its row until restored or purged
  deleted_at timestamptz,
  deleted_by text,
  recycle_reason text,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_tenant_idx ON device (tenant_code, deleted_at);
CREATE INDEX device_organization_idx ON device (organization_code);
CREATE INDEX device_product_idx ON device (product_code);
CREATE INDEX device_state_idx ON device (online_state);
CREATE INDEX device_gateway_idx ON device (gateway_code);

-- Devices a user follows ("关注设备").
CREATE TABLE device_care (
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_id)
);
