-- Issue 22: a device reports with a credential of its own, its code and a secret the platform issued.
-- Only the secret's SHA-256 is kept: the secret is 32 random bytes, so no slow hash is needed, and a
-- report is checked in microseconds. Staff see a secret once, when it is issued; issuing another
-- (a reset) stops the old one at once. A device without a row cannot report.
CREATE TABLE device_credential (
  device_id integer PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  secret_hash text NOT NULL CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
  issued_at timestamptz NOT NULL,
  issued_by integer REFERENCES app_user (id) ON DELETE SET NULL
);
