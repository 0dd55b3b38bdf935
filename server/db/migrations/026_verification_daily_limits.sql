-- Daily limits on verification codes (issue 9): each code records the tenant it is charged to (the
-- signed-in caller's, else the owner of the phone or mail; none for a number nobody owns yet), so
-- a day's codes can be counted per target and per tenant.
ALTER TABLE verification_code ADD COLUMN tenant_code text;
CREATE INDEX verification_code_tenant_idx ON verification_code (tenant_code, created_at DESC);
