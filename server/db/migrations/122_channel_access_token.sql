-- Issue 31: the access tokens a channel's provider issues for a while (a WeChat official account's
-- cgi-bin/token, valid about two hours), kept per channel so that every instance uses the same one:
-- WeChat voids the previous token when a new one is fetched, so instances that each fetched their
-- own would void each other's. Fetched under a lock by one instance when missing or about to
-- expire (server/ingest/channels/wechat.ts), and for the AppID it was issued to: a channel whose
-- AppID changes fetches anew.
CREATE TABLE channel_access_token (
  channel_id integer PRIMARY KEY REFERENCES notification_channel (id) ON DELETE CASCADE,
  app_id text NOT NULL,
  token text NOT NULL,
  expires_at timestamptz NOT NULL,
  fetched_at timestamptz NOT NULL
);
