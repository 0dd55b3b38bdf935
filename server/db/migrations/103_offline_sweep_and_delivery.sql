-- Issue 22: devices go offline by themselves, and channel messages are delivered with retries.

-- When the device last reported through ingestion (HTTP or MQTT). The offline sweep
-- (server/ingest/offlineSweep.ts) only looks at devices that have: the seeded fleet's online states
-- are a picture taken when the seed was written (its last_seen_at grows old on a demo database
-- opened days later), and sweeping them would turn the whole demo fleet offline at `npm start`.
ALTER TABLE device ADD COLUMN last_reported_at timestamptz;
-- The sweep's question: which online devices that report have been silent longest.
CREATE INDEX device_reporting_online_idx ON device (last_reported_at) WHERE online_state = 'online' AND last_reported_at IS NOT NULL AND deleted_at IS NULL;
-- The offline-minutes rules' question: which reporting devices are offline.
CREATE INDEX device_reporting_offline_idx ON device (tenant_code, last_reported_at) WHERE online_state = 'offline' AND last_reported_at IS NOT NULL AND deleted_at IS NULL;

-- The outbox's channel messages (an alarm's robot, SMS, mail… message) are sent after the
-- transaction that wrote them, by the delivery loop (server/ingest/outboxDelivery.ts): a row is
-- pending until an attempt succeeds (sent), is tried again later after a failure, and is given up
-- (failed) after the last attempt. Verification codes and older rows have no delivery state: the
-- outbox row is their delivery.
ALTER TABLE outbox ADD COLUMN tenant_code text REFERENCES organization (code) ON DELETE CASCADE;
ALTER TABLE outbox ADD COLUMN delivery_state text CHECK (delivery_state IN ('pending', 'sending', 'sent', 'failed'));
ALTER TABLE outbox ADD COLUMN attempts smallint NOT NULL DEFAULT 0;
-- pending: when it is due; sending: when the claim lapses (an instance that stopped mid-send)
ALTER TABLE outbox ADD COLUMN next_attempt_at timestamptz;
ALTER TABLE outbox ADD COLUMN delivered_at timestamptz;
ALTER TABLE outbox ADD COLUMN last_error text NOT NULL DEFAULT '';
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE delivery_state IN ('pending', 'sending');
CREATE INDEX outbox_tenant_idx ON outbox (tenant_code, id DESC) WHERE tenant_code IS NOT NULL;

-- Every attempt to send an outbox message, with its outcome: the delivery log.
CREATE TABLE outbox_attempt (
  id bigserial PRIMARY KEY,
  outbox_id integer NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
  attempt smallint NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('sent', 'failed')),
  error text NOT NULL DEFAULT '',
  duration_ms integer NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX outbox_attempt_outbox_idx ON outbox_attempt (outbox_id, id);
