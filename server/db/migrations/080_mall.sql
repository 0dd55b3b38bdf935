-- The online mall (issue 7, SPEC §1 and §7): the platform's goods and discounts, the tenants'
-- delivery addresses, orders with their lines and the IoT cards that shipped with them, and the
-- invoices of paid orders with the tenants' invoice titles.
--
-- States are dictionaries (schemas/dictionaries.json): goods_state, goods_category, discount_type,
-- discount_scope, mall_order_state, invoice_type, invoice_state; the transitions are in
-- server/domain/mall.ts. Goods and discounts belong to the platform; addresses and titles to a
-- tenant; an order to the organisation it was placed from (a tenant or one of its projects).

-- 商品: what the platform sells. `stock` is what can still be ordered: submitting an order takes
-- its quantity, cancelling an unpaid order (or refunding a paid one) gives it back.
CREATE TABLE mall_goods (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  -- goods_category dictionary
  category text NOT NULL CHECK (category IN ('device', 'card', 'service')),
  model text NOT NULL DEFAULT '',
  spec text NOT NULL DEFAULT '',
  unit text NOT NULL,
  price numeric(12, 2) NOT NULL CHECK (price > 0),
  -- the crossed-out list price, when the goods sells below it
  market_price numeric(12, 2) CHECK (market_price IS NULL OR market_price >= price),
  stock integer NOT NULL CHECK (stock >= 0),
  sales integer NOT NULL DEFAULT 0 CHECK (sales >= 0),
  -- the freight of an order holding it (an order pays its dearest line's freight)
  freight numeric(10, 2) NOT NULL DEFAULT 0 CHECK (freight >= 0),
  -- image urls (an upload's path, or a built-in picture), the first one is the cover
  images text[] NOT NULL CHECK (cardinality(images) BETWEEN 1 AND 6),
  -- sanitised HTML (server/domain/html.ts)
  description text NOT NULL DEFAULT '',
  -- the IoT card shipped with each unit (a device's built-in card, or a card package's cards)
  card_custom_code text REFERENCES card_custom (code),
  cards_per_unit integer NOT NULL DEFAULT 0 CHECK (cards_per_unit >= 0),
  -- goods_state dictionary
  state text NOT NULL CHECK (state IN ('on_shelf', 'off_shelf')),
  sort integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  shelved_at timestamptz,
  -- a deleted goods stays for the orders that bought it
  deleted_at timestamptz,
  CHECK ((card_custom_code IS NULL) = (cards_per_unit = 0))
);
CREATE INDEX mall_goods_state_idx ON mall_goods (state, category) WHERE deleted_at IS NULL;

-- 优惠: 满减 (amount: `reduce_amount` off once the base reaches `threshold`) or 折扣 (rate: the
-- base times `rate`), over given goods or a whole order, within [start_at, end_at).
CREATE TABLE mall_discount (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  -- discount_type dictionary
  type text NOT NULL CHECK (type IN ('amount', 'rate')),
  -- discount_scope dictionary
  scope text NOT NULL CHECK (scope IN ('goods', 'order')),
  goods_codes text[] NOT NULL DEFAULT '{}',
  threshold numeric(12, 2) NOT NULL DEFAULT 0 CHECK (threshold >= 0),
  reduce_amount numeric(12, 2) CHECK (reduce_amount IS NULL OR reduce_amount > 0),
  rate numeric(4, 2) CHECK (rate IS NULL OR (rate > 0 AND rate < 1)),
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  remark text NOT NULL DEFAULT '',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (end_at > start_at),
  CHECK (((type = 'amount') = (reduce_amount IS NOT NULL)) AND ((type = 'rate') = (rate IS NOT NULL))),
  CHECK ((scope = 'goods') = (cardinality(goods_codes) > 0))
);

-- 收货地址 of a tenant; at most one is its default.
CREATE TABLE mall_address (
  id serial PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code),
  receiver text NOT NULL,
  phone text NOT NULL CHECK (phone ~ '^1[3-9][0-9]{9}$'),
  region text NOT NULL,
  detail text NOT NULL,
  postcode text NOT NULL DEFAULT '',
  is_default boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mall_address_tenant_idx ON mall_address (tenant_code);
CREATE UNIQUE INDEX mall_address_default_idx ON mall_address (tenant_code) WHERE is_default;

-- 商城订单. The amounts are the server's (mall.order.preview and submit compute them alike);
-- the address and the discount are copied in as they were when the order was placed.
CREATE TABLE mall_order (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  -- mall_order_state dictionary
  state text NOT NULL CHECK (state IN ('pending_payment', 'paid', 'shipped', 'completed', 'cancelled', 'refunded')),
  goods_amount numeric(12, 2) NOT NULL CHECK (goods_amount >= 0),
  discount_amount numeric(12, 2) NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  freight_amount numeric(12, 2) NOT NULL DEFAULT 0 CHECK (freight_amount >= 0),
  pay_amount numeric(12, 2) NOT NULL CHECK (pay_amount >= 0),
  discount_code text REFERENCES mall_discount (code),
  discount_name text NOT NULL DEFAULT '',
  receiver text NOT NULL,
  receiver_phone text NOT NULL,
  address text NOT NULL,
  remark text NOT NULL DEFAULT '',
  buyer text NOT NULL,
  created_at timestamptz NOT NULL,
  pay_deadline timestamptz NOT NULL,
  -- payment_method dictionary (online methods only)
  pay_method text CHECK (pay_method IN ('wechat', 'alipay')),
  pay_no text UNIQUE,
  paid_at timestamptz,
  -- card_express_company dictionary
  express_company text,
  express_no text,
  shipped_at timestamptz,
  shipped_by text,
  received_at timestamptz,
  cancelled_at timestamptz,
  cancelled_by text,
  cancel_reason text,
  refunded_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((pay_no IS NULL) = (paid_at IS NULL)),
  CHECK (state NOT IN ('paid', 'shipped', 'completed', 'refunded') OR paid_at IS NOT NULL),
  CHECK (state NOT IN ('shipped', 'completed') OR (express_no IS NOT NULL AND express_no ~ '^[A-Za-z0-9,]+$'))
);
CREATE INDEX mall_order_organization_idx ON mall_order (organization_code, created_at DESC);
CREATE INDEX mall_order_tenant_idx ON mall_order (tenant_code, state);
CREATE INDEX mall_order_unpaid_idx ON mall_order (pay_deadline) WHERE state = 'pending_payment';

CREATE TABLE mall_order_item (
  id serial PRIMARY KEY,
  order_code text NOT NULL REFERENCES mall_order (code) ON DELETE CASCADE,
  goods_code text NOT NULL REFERENCES mall_goods (code),
  goods_name text NOT NULL,
  category text NOT NULL,
  spec text NOT NULL DEFAULT '',
  image text NOT NULL DEFAULT '',
  unit text NOT NULL,
  unit_price numeric(12, 2) NOT NULL CHECK (unit_price >= 0),
  quantity integer NOT NULL CHECK (quantity > 0),
  amount numeric(12, 2) NOT NULL CHECK (amount >= 0)
);
CREATE INDEX mall_order_item_order_idx ON mall_order_item (order_code);
CREATE INDEX mall_order_item_goods_idx ON mall_order_item (goods_code);

-- The IoT cards that left with an order: taken from the platform's card stock when it ships
-- (a device's built-in card, a card package's cards) and handed to the tenant.
CREATE TABLE mall_order_card (
  order_code text NOT NULL REFERENCES mall_order (code) ON DELETE CASCADE,
  iccid text NOT NULL REFERENCES sim_card (iccid),
  goods_code text NOT NULL REFERENCES mall_goods (code),
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (order_code, iccid)
);
CREATE UNIQUE INDEX mall_order_card_iccid_idx ON mall_order_card (iccid);

-- 发票抬头 of a tenant.
CREATE TABLE invoice_title (
  id serial PRIMARY KEY,
  tenant_code text NOT NULL REFERENCES organization (code),
  name text NOT NULL,
  tax_no text NOT NULL,
  bank_name text NOT NULL DEFAULT '',
  bank_account text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX invoice_title_tax_idx ON invoice_title (tenant_code, tax_no);

-- 发票: one per paid order (a rejected application may be made again). The title is copied in as
-- it was when applied for.
CREATE TABLE invoice (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  tenant_code text NOT NULL REFERENCES organization (code),
  organization_code text NOT NULL REFERENCES organization (code),
  order_code text NOT NULL REFERENCES mall_order (code),
  title_id integer REFERENCES invoice_title (id) ON DELETE SET NULL,
  -- invoice_type dictionary
  invoice_type text NOT NULL CHECK (invoice_type IN ('normal', 'special')),
  title_name text NOT NULL,
  tax_no text NOT NULL,
  bank_name text NOT NULL DEFAULT '',
  bank_account text NOT NULL DEFAULT '',
  title_address text NOT NULL DEFAULT '',
  title_phone text NOT NULL DEFAULT '',
  amount numeric(12, 2) NOT NULL CHECK (amount > 0),
  content text NOT NULL,
  email text NOT NULL DEFAULT '',
  remark text NOT NULL DEFAULT '',
  -- invoice_state dictionary
  state text NOT NULL CHECK (state IN ('applied', 'issued', 'rejected')),
  invoice_no text,
  issued_at timestamptz,
  reject_reason text,
  applied_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'issued') = (invoice_no IS NOT NULL AND issued_at IS NOT NULL))
);
CREATE INDEX invoice_organization_idx ON invoice (organization_code, created_at DESC);
CREATE UNIQUE INDEX invoice_order_idx ON invoice (order_code) WHERE state <> 'rejected';
