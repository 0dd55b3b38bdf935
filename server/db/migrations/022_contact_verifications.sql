-- A user proved, with a code, that they still hold their current phone or mail (SPEC §4, phone
-- change mode 2 and mail change with an existing mail). Changing the phone or mail needs a live,
-- unused proof for the old one; the change spends it.
CREATE TABLE contact_verification (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  contact_kind text NOT NULL CHECK (contact_kind IN ('phone', 'mail')),
  target text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_verification_user_idx ON contact_verification (user_id, contact_kind, created_at DESC);
