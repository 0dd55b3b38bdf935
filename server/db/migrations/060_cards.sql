-- IoT SIM cards (issue 7, SPEC §1 and §7 "Card"): the platform's card supply (suppliers, fee
-- standards, custom card specifications, warehousing batches), the cards themselves, the order
-- book with its deliveries, card replacement (alter delivery), renewal and recharge.
--
-- Every card has one owner organisation: the platform (P0001) while it lies in stock, then the
-- tenant, project or area that uses it, so scoping a list is one comparison with the caller's
-- working organisations. States are dictionaries (schemas/dictionaries.json): card_state,
-- card_order_state, card_delivery_state, card_alter_state, card_renew_state,
-- card_renew_order_state, recharge_order_state; the transitions are in server/domain/cards.ts.

CREATE TABLE card_supplier (
  code text PRIMARY KEY,
  name text NOT NULL,
  -- card_operator dictionary
  operator text NOT NULL CHECK (operator IN ('cmcc', 'cucc', 'ctcc', 'cbn')),
  contact_name text NOT NULL DEFAULT '',
  contact_phone text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- 资费标准: the yearly price of a package (monthly data allowance) of an operator. A null tenant is
-- the platform's list price; a tenant's own row is its negotiated price and wins over the list.
CREATE TABLE card_charge_standard (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  operator text NOT NULL CHECK (operator IN ('cmcc', 'cucc', 'ctcc', 'cbn')),
  -- card_network dictionary: nb, cat1, 4g, 5g
  network text NOT NULL CHECK (network IN ('nb', 'cat1', '4g', '5g')),
  flow_mb integer NOT NULL CHECK (flow_mb > 0),
  unit_price numeric(10, 2) NOT NULL CHECK (unit_price >= 0),
  -- the service terms (years) it is sold for
  years integer[] NOT NULL CHECK (cardinality(years) > 0),
  tenant_code text REFERENCES organization (code),
  enabled boolean NOT NULL DEFAULT true,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX card_charge_standard_package_idx ON card_charge_standard (operator, network, flow_mb, COALESCE(tenant_code, ''));

-- 定制卡: a card specification the platform orders from a supplier (form factor, grade, package).
CREATE TABLE card_custom (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  operator text NOT NULL CHECK (operator IN ('cmcc', 'cucc', 'ctcc', 'cbn')),
  -- card_form_factor dictionary
  form_factor text NOT NULL CHECK (form_factor IN ('plug', 'mp1', 'mp2', 'esim')),
  -- card_grade dictionary
  grade text NOT NULL CHECK (grade IN ('consumer', 'industrial', 'automotive')),
  supplier_code text NOT NULL REFERENCES card_supplier (code),
  package_code text NOT NULL REFERENCES card_charge_standard (code),
  unit_cost numeric(10, 2) NOT NULL CHECK (unit_cost >= 0),
  min_order integer NOT NULL DEFAULT 100 CHECK (min_order > 0),
  lead_days integer NOT NULL DEFAULT 7 CHECK (lead_days >= 0),
  enabled boolean NOT NULL DEFAULT true,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- 入库记录: a batch of cards received from a supplier.
CREATE TABLE card_stock_batch (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  custom_code text NOT NULL REFERENCES card_custom (code),
  supplier_code text NOT NULL REFERENCES card_supplier (code),
  operator text NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  iccid_first text NOT NULL,
  iccid_last text NOT NULL,
  created_by text NOT NULL,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The sales system's signed sale orders, imported as card orders by card.saleOrder.sync.
CREATE TABLE card_sale_order (
  code text PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  salesperson text NOT NULL,
  custom_code text NOT NULL REFERENCES card_custom (code),
  package_code text NOT NULL REFERENCES card_charge_standard (code),
  card_count integer NOT NULL CHECK (card_count > 0),
  years integer NOT NULL CHECK (years > 0),
  unit_price numeric(10, 2) NOT NULL,
  amount numeric(12, 2) NOT NULL,
  contact_name text NOT NULL,
  contact_phone text NOT NULL,
  address text NOT NULL,
  signed_at timestamptz NOT NULL,
  imported_at timestamptz
);

-- The card order of 024 grows into the whole order: what was sold, to whom, and its life cycle.
-- (The seed loads card_order before the supply tables, so only the organisation is a foreign key;
-- the operations check the sale order, custom card and package they write.)
ALTER TABLE card_order
  ADD COLUMN organization_code text REFERENCES organization (code),
  ADD COLUMN sale_order_code text UNIQUE,
  ADD COLUMN salesperson text NOT NULL DEFAULT '',
  ADD COLUMN custom_code text,
  ADD COLUMN package_code text,
  ADD COLUMN years integer NOT NULL DEFAULT 1 CHECK (years > 0),
  ADD COLUMN unit_price numeric(10, 2) NOT NULL DEFAULT 0,
  ADD COLUMN amount numeric(12, 2) NOT NULL DEFAULT 0,
  ADD COLUMN received_amount numeric(12, 2) NOT NULL DEFAULT 0,
  ADD COLUMN contact_name text NOT NULL DEFAULT '',
  ADD COLUMN contact_phone text NOT NULL DEFAULT '',
  ADD COLUMN address text NOT NULL DEFAULT '',
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN confirmed_by text,
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancel_reason text,
  ADD COLUMN completed_at timestamptz,
  ADD COLUMN synced_at timestamptz;
UPDATE card_order SET state = 'pending_confirm' WHERE state = 'awaiting_confirmation';
ALTER TABLE card_order ADD CONSTRAINT card_order_state_check
  CHECK (state IN ('pending_delivery', 'delivering', 'pending_confirm', 'confirmed', 'completed', 'cancelled'));
CREATE INDEX card_order_organization_idx ON card_order (organization_code);

CREATE TABLE sim_card (
  id serial PRIMARY KEY,
  iccid text NOT NULL UNIQUE CHECK (iccid ~ '^89[0-9]{17,18}$'),
  msisdn text NOT NULL UNIQUE,
  imsi text NOT NULL,
  operator text NOT NULL CHECK (operator IN ('cmcc', 'cucc', 'ctcc', 'cbn')),
  supplier_code text NOT NULL REFERENCES card_supplier (code),
  custom_code text REFERENCES card_custom (code),
  batch_code text REFERENCES card_stock_batch (code),
  package_code text NOT NULL REFERENCES card_charge_standard (code),
  flow_mb integer NOT NULL CHECK (flow_mb > 0),
  -- card_state dictionary
  state text NOT NULL CHECK (state IN ('in_stock', 'testing', 'active', 'suspended', 'deactivated', 'replaced')),
  -- the owner: the platform while in stock, then the tenant or one of its organisations
  organization_code text NOT NULL REFERENCES organization (code),
  tenant_code text REFERENCES organization (code),
  order_code text REFERENCES card_order (code),
  -- the delivery (or replacement) that reserved or shipped it
  delivery_code text,
  alter_code text,
  device_code text,
  test_until timestamptz,
  activated_at timestamptz,
  expires_at timestamptz,
  month_used_mb numeric(12, 2) NOT NULL DEFAULT 0 CHECK (month_used_mb >= 0),
  total_used_mb numeric(14, 2) NOT NULL DEFAULT 0 CHECK (total_used_mb >= 0),
  last_session_at timestamptz,
  -- card_cease_reason dictionary
  cease_reason text,
  suspended_at timestamptz,
  deactivated_at timestamptz,
  replaced_by text,
  synced_at timestamptz,
  remark text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'in_stock') = (tenant_code IS NULL))
);
CREATE INDEX sim_card_organization_idx ON sim_card (organization_code, state);
CREATE INDEX sim_card_tenant_idx ON sim_card (tenant_code, state);
CREATE INDEX sim_card_expires_idx ON sim_card (expires_at);
CREATE INDEX sim_card_delivery_idx ON sim_card (delivery_code);
CREATE INDEX sim_card_order_idx ON sim_card (order_code);
CREATE INDEX sim_card_device_idx ON sim_card (device_code);
CREATE INDEX sim_card_batch_idx ON sim_card (batch_code);

-- 发货单: the cards of an order picked from stock and shipped to the tenant.
CREATE TABLE card_delivery (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  order_code text NOT NULL REFERENCES card_order (code),
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  -- card_delivery_state dictionary
  state text NOT NULL CHECK (state IN ('created', 'shipped', 'received', 'revoked', 'cancelled')),
  card_count integer NOT NULL CHECK (card_count > 0),
  express_company text NOT NULL DEFAULT '',
  express_no text NOT NULL DEFAULT '',
  receiver text NOT NULL DEFAULT '',
  receiver_phone text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  remark text NOT NULL DEFAULT '',
  revoke_reason text,
  created_by text NOT NULL,
  shipped_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  shipped_at timestamptz,
  received_at timestamptz,
  revoked_at timestamptz,
  cancelled_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX card_delivery_order_idx ON card_delivery (order_code);
CREATE INDEX card_delivery_organization_idx ON card_delivery (organization_code, state);

CREATE TABLE card_delivery_item (
  delivery_code text NOT NULL REFERENCES card_delivery (code) ON DELETE CASCADE,
  iccid text NOT NULL REFERENCES sim_card (iccid),
  PRIMARY KEY (delivery_code, iccid)
);
CREATE INDEX card_delivery_item_iccid_idx ON card_delivery_item (iccid);

-- 换卡发货: faulty cards replaced by new ones from stock (the old card returned, or not: 无卡换卡).
CREATE TABLE card_alter (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  -- card_alter_kind dictionary: with_card (the old card comes back), no_card
  kind text NOT NULL CHECK (kind IN ('with_card', 'no_card')),
  -- card_alter_state dictionary
  state text NOT NULL CHECK (state IN ('applied', 'created', 'shipped', 'recovered', 'cancelled')),
  reason text NOT NULL,
  express_company text NOT NULL DEFAULT '',
  express_no text NOT NULL DEFAULT '',
  receiver text NOT NULL DEFAULT '',
  receiver_phone text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  applicant text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  waybill_at timestamptz,
  shipped_at timestamptz,
  recovered_at timestamptz,
  cancelled_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX card_alter_organization_idx ON card_alter (organization_code, state);

CREATE TABLE card_alter_item (
  id serial PRIMARY KEY,
  alter_code text NOT NULL REFERENCES card_alter (code) ON DELETE CASCADE,
  old_iccid text NOT NULL REFERENCES sim_card (iccid),
  new_iccid text REFERENCES sim_card (iccid),
  recovered boolean NOT NULL DEFAULT false,
  recovered_at timestamptz,
  UNIQUE (alter_code, old_iccid)
);
CREATE INDEX card_alter_item_old_idx ON card_alter_item (old_iccid);

-- 续费订单: renewals the tenant confirmed, settled together.
CREATE TABLE card_renew_order (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  -- card_renew_order_state dictionary
  state text NOT NULL CHECK (state IN ('pending_confirm', 'confirmed')),
  card_count integer NOT NULL CHECK (card_count > 0),
  amount numeric(12, 2) NOT NULL CHECK (amount >= 0),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_by text,
  confirmed_at timestamptz
);
CREATE INDEX card_renew_order_organization_idx ON card_renew_order (organization_code, state);

-- 续费卡: one row per card and service period coming to its end.
CREATE TABLE card_renew (
  id serial PRIMARY KEY,
  iccid text NOT NULL REFERENCES sim_card (iccid),
  tenant_code text NOT NULL REFERENCES organization (code),
  -- card_renew_state dictionary
  state text NOT NULL CHECK (state IN ('unregistered', 'registered', 'confirmed', 'locked')),
  -- the expiry this renewal extends
  expires_at timestamptz NOT NULL,
  years integer CHECK (years > 0),
  unit_price numeric(10, 2),
  amount numeric(12, 2),
  order_code text REFERENCES card_renew_order (code),
  registered_by text,
  registered_at timestamptz,
  confirmed_by text,
  confirmed_at timestamptz,
  locked_by text,
  locked_at timestamptz,
  lock_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (iccid, expires_at),
  CHECK (state = 'unregistered' OR state = 'locked' OR (years IS NOT NULL AND amount IS NOT NULL))
);
CREATE INDEX card_renew_state_idx ON card_renew (tenant_code, state);
CREATE INDEX card_renew_order_idx ON card_renew (order_code);

-- 充值订单: service years a tenant buys for its cards, paid online or by corporate transfer.
CREATE TABLE card_recharge (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  -- recharge_order_state dictionary
  state text NOT NULL CHECK (state IN ('pending_payment', 'paid', 'confirmed', 'cancelled')),
  -- payment_method dictionary
  payment_method text NOT NULL CHECK (payment_method IN ('wechat', 'alipay', 'corporate')),
  years integer NOT NULL CHECK (years > 0),
  card_count integer NOT NULL CHECK (card_count > 0),
  amount numeric(12, 2) NOT NULL CHECK (amount >= 0),
  contract_url text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  confirmed_by text,
  confirmed_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX card_recharge_organization_idx ON card_recharge (organization_code, state);

CREATE TABLE card_recharge_item (
  recharge_code text NOT NULL REFERENCES card_recharge (code) ON DELETE CASCADE,
  iccid text NOT NULL REFERENCES sim_card (iccid),
  unit_price numeric(10, 2) NOT NULL,
  amount numeric(12, 2) NOT NULL,
  expires_before timestamptz,
  expires_after timestamptz,
  PRIMARY KEY (recharge_code, iccid)
);
CREATE INDEX card_recharge_item_iccid_idx ON card_recharge_item (iccid);

-- Data used per tenant, operator and day (the flow monitor of the card dashboards).
CREATE TABLE card_flow_daily (
  day date NOT NULL,
  tenant_code text NOT NULL REFERENCES organization (code),
  operator text NOT NULL,
  used_mb numeric(14, 2) NOT NULL CHECK (used_mb >= 0),
  active_cards integer NOT NULL CHECK (active_cards >= 0),
  PRIMARY KEY (day, tenant_code, operator)
);

-- When the platform last synchronised with the operators and the sales system (card.syncTime.get).
CREATE TABLE card_sync (
  kind text PRIMARY KEY CHECK (kind IN ('sim', 'order', 'sale_order')),
  synced_at timestamptz NOT NULL,
  synced_by text NOT NULL,
  summary text NOT NULL DEFAULT ''
);
