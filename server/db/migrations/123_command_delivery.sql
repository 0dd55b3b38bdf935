-- Issue 31, commands reach devices: a command is `pending` until it is out, `sent` once published
-- (with QoS 1, once the device's PUBACK arrived), then `acknowledged` or `failed` by the device's
-- reply, or `expired` when no reply came before `expires_at`. Every change of state is one
-- conditional UPDATE (server/ingest/commandDelivery.ts): a late or repeated reply changes nothing.
ALTER TABLE device_command DROP CONSTRAINT device_command_state_check;
ALTER TABLE device_command ADD CONSTRAINT device_command_state_check CHECK (state IN ('pending', 'sent', 'acknowledged', 'failed', 'expired'));

-- When the device's reply arrived (acknowledged or failed), what it said and the data it sent.
ALTER TABLE device_command RENAME COLUMN acknowledged_at TO replied_at;
ALTER TABLE device_command ADD COLUMN result text CHECK (result IN ('ok', 'failed'));
ALTER TABLE device_command ADD COLUMN reply_message text CHECK (char_length(reply_message) <= 500);
ALTER TABLE device_command ADD COLUMN reply_data jsonb;

-- No reply before this: expired. Written by the platform for each command (COMMAND_TTL_SECONDS
-- after it was generated unless its sender says otherwise); rows written without one (the demo
-- history, the commands of an older build) take ten minutes after their creation.
ALTER TABLE device_command ADD COLUMN expires_at timestamptz;
UPDATE device_command SET expires_at = created_at + interval '10 minutes';
ALTER TABLE device_command ALTER COLUMN expires_at SET NOT NULL;
CREATE FUNCTION device_command_expiry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.expires_at := NEW.created_at + interval '10 minutes';
  RETURN NEW;
END
$$;
CREATE TRIGGER device_command_expires BEFORE INSERT ON device_command
  FOR EACH ROW WHEN (NEW.expires_at IS NULL) EXECUTE FUNCTION device_command_expiry();

-- Which instance is publishing a pending command, until when (a lease): two instances never send
-- one command at once, and a send whose PUBACK never came is tried again once its lease is over.
ALTER TABLE device_command ADD COLUMN claimed_by text;
ALTER TABLE device_command ADD COLUMN claimed_until timestamptz;

-- A device's waiting commands, in id order (sent when it connects or reports), and the open ones
-- by expiry (the expiry sweep).
CREATE INDEX device_command_waiting_idx ON device_command (device_id, id) WHERE state = 'pending';
CREATE INDEX device_command_open_idx ON device_command (expires_at) WHERE state IN ('pending', 'sent');
