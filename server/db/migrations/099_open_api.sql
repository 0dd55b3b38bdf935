-- The open platform (issue 23): a tenant's systems call an open subset of the API with requests
-- signed by the tenant's access key (server/openApi/). Everything here is shared by every instance.

-- The key's secret, which signs the requests (HMAC-SHA256). The server needs the secret itself to
-- check a signature, so it cannot be kept as a hash: it is kept encrypted (AES-256-GCM under the
-- instances' shared key `open-api` of server_secret, bound to the access key), shown once when it is
-- issued (openApi.key.reset) and never answered again. A key made before its first reset has none
-- and opens nothing. A reset replaces access key and secret in one statement: the old ones stop at once.
ALTER TABLE tenant_access_key ADD COLUMN secret_ciphertext text;
ALTER TABLE tenant_access_key ADD COLUMN reset_by integer REFERENCES app_user (id) ON DELETE SET NULL;
ALTER TABLE tenant_access_key ADD COLUMN reset_at timestamptz;

-- Nonces already used, per access key, until the request's timestamp leaves the clock-skew window
-- (after that the timestamp alone refuses a replay). One insert per call decides: a nonce is taken once.
CREATE TABLE open_api_nonce (
  access_key text NOT NULL,
  nonce text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (access_key, nonce)
);
CREATE INDEX open_api_nonce_expires_at ON open_api_nonce (expires_at);

-- Every call made with a tenant's access key, answered or refused (a key nobody has cannot be
-- put down to a tenant and is only in the server log). The tenant's admin reads it (openApi.call.page).
CREATE TABLE open_api_call (
  id bigserial PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code) ON DELETE CASCADE,
  access_key text NOT NULL,
  operation text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  client_ip text NOT NULL,
  user_agent text NOT NULL,
  request_id text NOT NULL,
  duration_ms integer NOT NULL,
  called_at timestamptz NOT NULL
);
CREATE INDEX open_api_call_tenant_called_at ON open_api_call (tenant_code, called_at DESC, id DESC);
CREATE INDEX open_api_call_called_at ON open_api_call (called_at);
