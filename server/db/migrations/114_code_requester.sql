-- Issue 30: codes a signed-in user has sent are counted per user (an hourly limit, and a daily
-- share below the tenant's, so that one user cannot spend the tenant's codes for everyone), and a
-- code to a number or mail the user is binding (not their own) is marked: only one such target of
-- each kind (phone, mail) has a live code at a time, a new one voiding the one before.
ALTER TABLE verification_code ADD COLUMN requested_by integer REFERENCES app_user (id) ON DELETE SET NULL;
ALTER TABLE verification_code ADD COLUMN binding boolean NOT NULL DEFAULT false;
CREATE INDEX verification_code_requester_idx ON verification_code (requested_by, created_at DESC) WHERE requested_by IS NOT NULL;
