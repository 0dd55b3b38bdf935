-- Usage messages: one row per route change in the console (SPEC §7 "usage message save"), read by
-- the usage statistics dashboards.
CREATE TABLE usage_message (
  id serial PRIMARY KEY,
  user_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  organization_code text,
  action_type text NOT NULL,
  usage_url text NOT NULL,
  extra_item text NOT NULL DEFAULT '',
  active_time timestamptz NOT NULL,
  pending_time integer NOT NULL DEFAULT 0,
  platform text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_message_created_idx ON usage_message (created_at DESC);
CREATE INDEX usage_message_url_idx ON usage_message (usage_url);
