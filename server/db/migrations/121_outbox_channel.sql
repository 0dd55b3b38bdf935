-- Issue 31, channels that really send: each outbox row names the channel configuration (发送配置)
-- it was written for, so the delivery loop's transport (server/ingest/channels/) reads that
-- channel's settings and secrets when it sends — the secrets are never copied into the outbox. A
-- verification code has none (null): it goes through the platform's own transport. A channel
-- deleted meanwhile leaves null behind: its message is given up, not sent somewhere else.
ALTER TABLE outbox ADD COLUMN channel_id integer REFERENCES notification_channel (id) ON DELETE SET NULL;
-- Deleting a channel sets its rows' reference to null: found by this index, not by a scan.
CREATE INDEX outbox_channel_idx ON outbox (channel_id) WHERE channel_id IS NOT NULL;
