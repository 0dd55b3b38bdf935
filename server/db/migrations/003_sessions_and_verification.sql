-- Sessions (tokens stored only as SHA-256 hashes), the login log, verification codes and the
-- outbox they are "sent" through, and the simulated WeChat scan login.
CREATE TABLE auth_session (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  access_hash text NOT NULL UNIQUE,
  access_expires_at timestamptz NOT NULL,
  refresh_hash text NOT NULL UNIQUE,
  refresh_expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_session_user_idx ON auth_session (user_id);

CREATE TABLE login_log (
  id serial PRIMARY KEY,
  login_name text NOT NULL,
  user_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  method text NOT NULL CHECK (method IN ('password', 'wechat')),
  success boolean NOT NULL,
  reason text NOT NULL DEFAULT '',
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_log_created_idx ON login_log (created_at DESC);

CREATE TABLE verification_code (
  id serial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('sms', 'voice', 'mail')),
  target text NOT NULL,
  salt text NOT NULL,
  code_hash text NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  voided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_code_target_idx ON verification_code (target, created_at DESC);

CREATE TABLE outbox (
  id serial PRIMARY KEY,
  channel text NOT NULL,
  target text NOT NULL,
  code text NOT NULL DEFAULT '',
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_target_idx ON outbox (target, id DESC);

CREATE TABLE wechat_ticket (
  ticket text PRIMARY KEY,
  open_id text,
  scanned_at timestamptz,
  used_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wechat_bind_key (
  key_hash text PRIMARY KEY,
  open_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
