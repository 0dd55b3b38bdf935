-- Notifications of the console's bell (SPEC §2, §4): one row per message, one recipient row per
-- user it reaches with that user's read state, so a broadcast (a firmware release note to every
-- user of a tenant) is stored once. Tab 1 日常阅读 (daily read), tab 2 系统消息 (system messages).
-- body_html is sanitised before it is saved (server/domain/html.ts); body_text is its plain text,
-- for keyword search.
CREATE TABLE notification (
  id serial PRIMARY KEY,
  tab_type smallint NOT NULL CHECK (tab_type IN (1, 2)),
  title text NOT NULL,
  body_html text NOT NULL DEFAULT '',
  body_text text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_created_idx ON notification (created_at DESC, id DESC);

CREATE TABLE notification_recipient (
  notification_id integer NOT NULL REFERENCES notification (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  read_at timestamptz,
  PRIMARY KEY (notification_id, user_id)
);
CREATE INDEX notification_recipient_user_idx ON notification_recipient (user_id, read_at);
