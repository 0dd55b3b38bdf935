-- IoT SIM card orders of a tenant (SPEC §7 "Card"). Only what the start-up check needs so far
-- (card.order.isBulletBox: does the tenant have an order awaiting its confirmation?); issue 7
-- adds the order's lines, amounts and the rest of its life cycle. `state` is left open (no CHECK)
-- for that issue to settle; the start-up check reads 'awaiting_confirmation'.
CREATE TABLE card_order (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  state text NOT NULL,
  card_count integer NOT NULL DEFAULT 0 CHECK (card_count >= 0),
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX card_order_tenant_state_idx ON card_order (tenant_code, state);
