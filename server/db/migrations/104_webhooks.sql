-- Issue 23, webhooks: a tenant's systems are told when an alarm is raised or recovered and when a
-- device comes online or goes offline. A tenant registers URLs (webhook) for the events it wants;
-- each event is a delivery per subscribed webhook, written in the transaction that makes the change
-- (with its live_event, migration 102) and sent after it by the delivery loop
-- (server/ingest/webhookDelivery.ts): signed with the webhook's secret, retried with backoff,
-- every attempt logged with its outcome. The secret signs (HMAC-SHA256), so it is kept encrypted
-- like the open API's (server/openApi/signature.ts), shown once when issued.
CREATE TABLE webhook (
  id serial PRIMARY KEY,
  -- wh_ + 16 hex digits: what the console and the deliveries name it by, and what its secret is bound to
  code text NOT NULL UNIQUE CHECK (code ~ '^wh_[0-9a-f]{16}$'),
  tenant_code text NOT NULL REFERENCES organization (code) ON DELETE CASCADE,
  name text NOT NULL,
  url text NOT NULL CHECK (url ~ '^https?://'),
  -- alarm.raised, alarm.recovered, device.online, device.offline
  events text[] NOT NULL CHECK (cardinality(events) > 0 AND events <@ ARRAY['alarm.raised', 'alarm.recovered', 'device.online', 'device.offline']::text[]),
  secret_ciphertext text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_by integer REFERENCES app_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_tenant_idx ON webhook (tenant_code, id);

CREATE TABLE webhook_delivery (
  id bigserial PRIMARY KEY,
  webhook_id integer NOT NULL REFERENCES webhook (id) ON DELETE CASCADE,
  tenant_code text NOT NULL REFERENCES organization (code) ON DELETE CASCADE,
  event text NOT NULL,
  -- the JSON body as sent (and signed), the same for every attempt
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
  attempts smallint NOT NULL DEFAULT 0,
  -- pending: when it is due; sending: when the claim lapses (an instance that stopped mid-send)
  next_attempt_at timestamptz NOT NULL,
  delivered_at timestamptz,
  last_status integer,
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_delivery_due_idx ON webhook_delivery (next_attempt_at) WHERE state IN ('pending', 'sending');
CREATE INDEX webhook_delivery_tenant_idx ON webhook_delivery (tenant_code, id DESC);
CREATE INDEX webhook_delivery_webhook_idx ON webhook_delivery (webhook_id, id DESC);
CREATE INDEX webhook_delivery_created_idx ON webhook_delivery (created_at);

CREATE TABLE webhook_attempt (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_delivery (id) ON DELETE CASCADE,
  attempt smallint NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('sent', 'failed')),
  -- the endpoint's HTTP status; null when none came (refused, timed out)
  status_code integer,
  error text NOT NULL DEFAULT '',
  duration_ms integer NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempt_delivery_idx ON webhook_attempt (delivery_id, id);
