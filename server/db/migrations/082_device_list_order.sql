-- The device lists' orders (newest first, most recently seen first) as indexes over live devices:
-- a deep page then walks the index and stops at its rows instead of sorting every device in scope
-- (with 100,000 devices a page sorted 60,000 rows, spilling to disk).
CREATE INDEX device_created_order_idx ON device (created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX device_last_seen_order_idx ON device (last_seen_at DESC, created_at DESC, id DESC) WHERE deleted_at IS NULL;
