-- Issue 22: what the console is told without asking (server-sent events). A change worth telling
-- (an alarm raised or recovered, a device coming online) is written here in the transaction that
-- makes it, and announced with pg_notify('live_event', id) at its commit, to every instance. A tab
-- that reconnects catches up from its last event id; rows older than a day are pruned.
CREATE TABLE live_event (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  tenant_code text NOT NULL,
  organization_code text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX live_event_created_idx ON live_event (created_at);
