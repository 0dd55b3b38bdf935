import { describe, expect, it } from 'vitest';
import { isPrivateAddress, privateTarget } from '../../server/ingest/webhookDelivery';

/**
 * The webhook address filter (issue 30): IPv6 forms that carry an IPv4 address are refused as the
 * IPv4 they carry is refused, whatever their spelling; a public IPv4 inside them may pass. Teredo
 * (its IPv4 obfuscated) and the local-use NAT64 prefix (the operator's own translator) are refused
 * whole. No database: the same on both engines.
 */

/** [address, refused, what it is] */
const ADDRESSES: ReadonlyArray<readonly [string, boolean, string]> = [
  // Plain IPv4 and IPv6, as before.
  ['127.0.0.1', true, 'loopback'],
  ['10.1.2.3', true, 'private'],
  ['169.254.169.254', true, 'link-local (cloud metadata)'],
  ['8.8.8.8', false, 'public'],
  ['::1', true, 'IPv6 loopback'],
  ['fd00::1', true, 'unique-local'],
  ['2001:4860:4860::8888', false, 'public IPv6'],
  // IPv4-mapped ::ffff:a.b.c.d, in every spelling.
  ['::ffff:127.0.0.1', true, 'mapped loopback'],
  ['::ffff:7f00:1', true, 'mapped loopback, hex'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', true, 'mapped metadata, uncompressed'],
  ['::ffff:8.8.8.8', false, 'mapped public'],
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT).
  ['::ffff:0:10.0.0.1', true, 'translated private'],
  ['::ffff:0:8.8.8.8', false, 'translated public'],
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks).
  ['::127.0.0.1', true, 'compatible loopback'],
  ['::7f00:1', true, 'compatible loopback, hex'],
  ['::a9fe:a9fe', true, 'compatible metadata'],
  ['::10.0.0.1', true, 'compatible private'],
  ['::8.8.8.8', false, 'compatible public'],
  // NAT64, the well-known prefix 64:ff9b::/96.
  ['64:ff9b::127.0.0.1', true, 'NAT64 loopback'],
  ['64:ff9b::a00:1', true, 'NAT64 private, hex'],
  ['64:FF9B:0:0:0:0:C0A8:0101', true, 'NAT64 192.168.1.1, upper case'],
  ['64:ff9b::a9fe:a9fe', true, 'NAT64 metadata'],
  ['64:ff9b::8.8.8.8', false, 'NAT64 public'],
  // The local-use NAT64 prefix 64:ff9b:1::/48: the operator's own translator.
  ['64:ff9b:1::808:808', true, 'local-use NAT64'],
  ['64:ff9b:1:ffff::1', true, 'local-use NAT64, another form'],
  // 6to4 2002:aabb:ccdd::/48.
  ['2002:7f00:1::1', true, '6to4 loopback'],
  ['2002:a00:1::', true, '6to4 private'],
  ['2002:a9fe:a9fe:1234::1', true, '6to4 metadata'],
  ['2002:c0a8:101::1', true, '6to4 192.168.1.1'],
  ['2002:808:808::1', false, '6to4 public'],
  // Teredo 2001:0::/32: the client's IPv4 is obfuscated in it.
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true, 'Teredo'],
  ['2001::1', true, 'Teredo, short'],
  // Link-local with a zone.
  ['fe80::1%eth0', true, 'link-local with a zone'],
];

describe('webhook address filter', () => {
  it.each(ADDRESSES)('%s refused: %s (%s)', (address, refused) => {
    expect(isPrivateAddress(address)).toBe(refused);
  });

  it('refuses a webhook URL naming any of the refused forms (as the URL spells them)', () => {
    const refusedInUrls = ADDRESSES.filter(([address, refused]) => refused && !address.includes('%') && address.includes(':'));
    const passed = refusedInUrls.filter(([address]) => privateTarget(new URL(`http://[${address}]/hook`)) === null).map(([address]) => address);
    expect(passed).toEqual([]);
    expect(privateTarget(new URL('http://[64:ff9b::8.8.8.8]/hook'))).toBeNull();
    expect(privateTarget(new URL('http://[2002:808:808::1]/hook'))).toBeNull();
  });

  it('is not fooled by text that is not an address', () => {
    expect(['', 'example.com', '::ffff:999.1.1.1', '2002:zz::1', '1.2.3'].filter(isPrivateAddress)).toEqual([]);
  });
});
