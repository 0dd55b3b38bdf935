-- Issue 30/31 follow-up: the notification channels' secrets sealed at rest. `secrets` keeps one
-- value per secret name, now each sealed (AES-256-GCM, server/security/secrets.ts) and bound to its
-- channel and name; `secret_masks` holds what the console is shown of each (`****1a2b`), so the
-- screens never open a secret; `secrets_sealed` says the row's secrets are sealed. Rows written
-- before this migration hold them in the clear (false): the server seals them once at start, under
-- the start-up lock, before it serves (server/domain/channelSecrets.ts sealPlainChannels).
ALTER TABLE notification_channel
  ADD COLUMN secrets_sealed boolean NOT NULL DEFAULT false,
  ADD COLUMN secret_masks jsonb NOT NULL DEFAULT '{}';

-- The WeChat access tokens kept so far are in the clear; from now on they are kept sealed
-- (server/ingest/channels/wechat.ts). A token is only a cache: the next send fetches another.
DELETE FROM channel_access_token;
