-- Issue 36: the external broker's persistent sessions the platform's instances take the devices'
-- readings in (server/ingest/bridgeSessions.ts). Each instance subscribes under a client id of its
-- own, held with a lease it renews; the broker keeps handing a member of a shared subscription its
-- share while it is away (Mosquitto 2.0.11 does not pass what a dead member never acknowledged to the
-- others), so an instance that finds a session whose lease lapsed takes it over (claimed here,
-- conditionally: one instance wins), resumes it under its client id, unsubscribes it, stores what it
-- held and ends it.
CREATE TABLE mqtt_bridge_session (
  client_id text PRIMARY KEY,
  holder text NOT NULL,
  lease_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
