-- The open-platform access key of a tenant (SPEC §2 account drawer), made on first request. It is
-- shown to the tenant's staff, so it is kept as issued (encryption at rest is out of scope).
CREATE TABLE tenant_access_key (
  tenant_code text PRIMARY KEY REFERENCES organization (code) ON DELETE CASCADE,
  access_key text NOT NULL UNIQUE,
  created_by integer REFERENCES app_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
