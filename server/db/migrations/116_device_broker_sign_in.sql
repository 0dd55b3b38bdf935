-- Issue 30: an external broker's session opened with a secret that was reset since stays open on
-- that broker, where the platform cannot close it. The bridge takes a device's readings only once
-- the device has signed in to the broker (POST /api/device/mqtt/_auth) with its current secret:
-- issuing a secret clears this, the broker's next successful sign-in check sets it.
ALTER TABLE device_credential ADD COLUMN broker_signed_in_at timestamptz;
-- Credentials issued before this: their sessions are the ones the broker holds now; refusing every
-- device's readings until it reconnects would stop the whole fleet at the upgrade.
UPDATE device_credential SET broker_signed_in_at = issued_at;
