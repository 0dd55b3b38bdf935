-- Label configuration (标签配置, tag.tenantConstant.find/save): the names the console, the big
-- screen and the app show for device fields, business terms and screen titles. A row overrides
-- the built-in default for one organisation: a tenant (type 2) for its own staff, or the platform
-- (type 1) for every tenant that has not set the label itself.
CREATE TABLE tenant_label_constant (
  organization_code text NOT NULL REFERENCES organization (code) ON DELETE CASCADE,
  constant_key text NOT NULL,
  value text NOT NULL,
  updated_by integer REFERENCES app_user (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_code, constant_key)
);

-- The statistics: a user's logins (login users, activity levels), and the usage records of the
-- organisations in scope by time.
CREATE INDEX login_log_user_idx ON login_log (user_id, created_at DESC);
CREATE INDEX usage_message_organization_idx ON usage_message (organization_code, created_at DESC);
