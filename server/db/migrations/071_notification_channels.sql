-- Notification channels, maintained notifications and message sending (issue 6, SPEC §1
-- "Message notifications" and "Notification channel configuration").
--
-- 发送配置: a tenant's (or, tenant_code null, the platform's) configured channels. Each has a type
-- (notification_channel_type dictionary: dingtalk, feishu, mail, sms, voice, wechat), the plain
-- settings of that type in `settings` (webhook, SMTP host and port, provider, AppID …) and its
-- secrets in `secrets` (加签 secret, SMTP password, AccessKey Secret, AppSecret), which no
-- operation ever answers unmasked, and a message template with ${变量} placeholders. Nothing
-- leaves the server: a delivery writes the outbox of 003 (the one verification codes use).
CREATE TABLE notification_channel (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text REFERENCES organization (code),
  name text NOT NULL,
  channel_type text NOT NULL CHECK (channel_type IN ('dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat')),
  settings jsonb NOT NULL DEFAULT '{}',
  secrets jsonb NOT NULL DEFAULT '{}',
  template text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  remark text NOT NULL DEFAULT '',
  last_test_at timestamptz,
  last_test_by text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX notification_channel_name_idx ON notification_channel (COALESCE(tenant_code, ''), name);
CREATE INDEX notification_channel_tenant_idx ON notification_channel (tenant_code, channel_type);

-- 消息维护: notifications an administrator writes for the bell of the frame (020). A draft is
-- edited until it is published; publishing saves it once as a `notification` with one recipient
-- row per user of its audience (the whole organisation it was written under, some of its
-- organisations, or the holders of some roles) and links it here. organization_code is where it
-- was written (the selected organisation: a tenant, or the platform root for platform notices).
CREATE TABLE maintained_notification (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_code text NOT NULL REFERENCES organization (code),
  -- notification_tab_type: 1 日常阅读, 2 系统消息
  tab_type smallint NOT NULL CHECK (tab_type IN (1, 2)),
  title text NOT NULL,
  -- sanitised on save (server/domain/html.ts); body_text is its plain text, for keyword search
  body_html text NOT NULL DEFAULT '',
  body_text text NOT NULL DEFAULT '',
  -- notification_audience_type: all, organization, role
  audience_type text NOT NULL CHECK (audience_type IN ('all', 'organization', 'role')),
  audience_organizations text[] NOT NULL DEFAULT '{}',
  audience_roles text[] NOT NULL DEFAULT '{}',
  -- notification_publish_state: draft, published
  state text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'published')),
  notification_id integer REFERENCES notification (id) ON DELETE SET NULL,
  recipient_count integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  published_by text,
  published_at timestamptz,
  CHECK ((state = 'published') = (published_at IS NOT NULL))
);
CREATE INDEX maintained_notification_scope_idx ON maintained_notification (organization_code, created_at DESC);

-- 消息发送: a message sent through a channel to users (picked one by one, by organisation or by
-- role), rendered from the channel's template. A send scheduled for later stays pending until
-- it is due. Each recipient has its own row and state (notification_send_state: pending, sent,
-- failed with the reason); a failed one can be sent again.
CREATE TABLE notification_send (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_code text NOT NULL REFERENCES organization (code),
  channel_id integer REFERENCES notification_channel (id) ON DELETE SET NULL,
  channel_type text NOT NULL,
  channel_name text NOT NULL,
  title text NOT NULL,
  content text NOT NULL,
  -- further ${变量} values: {"变量": "值"}
  variables jsonb NOT NULL DEFAULT '{}',
  -- notification_audience_type: user, organization, role
  audience_type text NOT NULL CHECK (audience_type IN ('user', 'organization', 'role')),
  audience_summary text NOT NULL DEFAULT '',
  scheduled_at timestamptz NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_send_scope_idx ON notification_send (organization_code, created_at DESC);

CREATE TABLE notification_send_recipient (
  id serial PRIMARY KEY,
  send_id integer NOT NULL REFERENCES notification_send (id) ON DELETE CASCADE,
  user_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  user_name text NOT NULL,
  -- where it went: a phone, a mail, a WeChat openId
  address text NOT NULL DEFAULT '',
  message text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  fail_reason text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'failed') = (fail_reason <> ''))
);
CREATE INDEX notification_send_recipient_send_idx ON notification_send_recipient (send_id);
CREATE INDEX notification_send_recipient_pending_idx ON notification_send_recipient (state) WHERE state = 'pending';
