-- Files uploaded through system/file/upload. The bytes live in the file folder (FileStore) under
-- `path`; the row says who uploaded them and what they were sniffed as, so a user can only set
-- as avatar an image they uploaded themselves.
CREATE TABLE uploaded_file (
  id serial PRIMARY KEY,
  path text NOT NULL UNIQUE,
  user_id integer REFERENCES app_user (id) ON DELETE SET NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes >= 0),
  original_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploaded_file_user_idx ON uploaded_file (user_id, created_at DESC);
