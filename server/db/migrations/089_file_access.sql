-- Who may read an uploaded file (issue 18, finding 9). A file belongs to the tenant it was uploaded
-- in (NULL: uploaded by platform staff, the platform's own); `public` marks the few meant for
-- everyone (mall goods pictures), set when a goods record takes them. Everything else is served
-- only with a file ticket of a caller who may read it (http/files.ts).
ALTER TABLE uploaded_file ADD COLUMN tenant_code text;
ALTER TABLE uploaded_file ADD COLUMN public boolean NOT NULL DEFAULT false;

-- Files uploaded before: the tenant of their uploader's first organisation.
UPDATE uploaded_file f SET tenant_code = (
  WITH RECURSIVE up (code, type, parent_code, depth) AS (
    SELECT o.code, o.type, o.parent_code, 0
      FROM user_organization uo JOIN organization o ON o.code = uo.organization_code
     WHERE uo.user_id = f.user_id AND uo.sort = (SELECT min(sort) FROM user_organization WHERE user_id = f.user_id)
    UNION ALL
    SELECT o.code, o.type, o.parent_code, up.depth + 1 FROM organization o JOIN up ON o.code = up.parent_code WHERE up.depth < 64
  )
  SELECT code FROM up WHERE type = 2 ORDER BY depth LIMIT 1
);
-- Pictures already on goods are public.
UPDATE uploaded_file SET public = true WHERE path IN (SELECT unnest(images) FROM mall_goods);

-- Secrets every instance of the server shares (the key that signs file tickets), created by the
-- first instance to start when FILES_SECRET is not set.
CREATE TABLE server_secret (
  name text PRIMARY KEY,
  value text NOT NULL CHECK (length(value) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
