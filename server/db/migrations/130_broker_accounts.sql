-- Issue 36: the broker's own device accounts kept in step with the credentials the platform issues
-- (Mosquitto's dynamic-security plugin, MQTT_DYNSEC=1; server/ingest/mosquittoAccounts.ts). One row
-- per device code, the broker client's username: the state that client should have (wanted), the
-- password to give it until the broker confirmed it (sealed, server/security/secrets.ts; cleared
-- once confirmed, so the platform keeps a device's secret no longer than it must), and the version
-- the broker last confirmed. A row whose version is ahead of confirmed_version is pending: an
-- instance claims it (claimed_by until claimed_until), sends the change over
-- $CONTROL/dynamic-security/v1, reads the answer and confirms it conditionally; a failed attempt is
-- retried after a growing pause (next_attempt_at), however long the broker is away.
CREATE TABLE broker_account (
  device_code text PRIMARY KEY,
  wanted text NOT NULL CHECK (wanted IN ('enabled', 'disabled', 'deleted')),
  password_sealed text,
  version bigint NOT NULL DEFAULT 1,
  confirmed_version bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  claimed_by text,
  claimed_until timestamptz,
  last_error text,
  -- A device that may sign in but has no client on the broker, and the platform no password to give
  -- it (its credential was issued before the broker's accounts were kept): a credential reset makes one.
  needs_reset boolean NOT NULL DEFAULT false
);

CREATE INDEX broker_account_pending ON broker_account (next_attempt_at) WHERE version > confirmed_version;
