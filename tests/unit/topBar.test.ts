import { describe, expect, it } from 'vitest';
import { bigScreenUrl } from '../../src/frame/TopBarLinks';

describe('SPEC §6 big-screen link', () => {
  it('carries the token for tenant-type roles', () => {
    expect(bigScreenUrl(['TENANT_ADMIN'], 'tok en')).toBe('/big-screen?dlmToken=tok%20en');
    expect(bigScreenUrl(['ROLE_TENANT_PATROL'], 'abc')).toBe('/big-screen?dlmToken=abc');
  });
  it('goes to the plain landing page otherwise', () => {
    expect(bigScreenUrl(['PLATFORM_ADMIN'], 'abc')).toBe('/');
    expect(bigScreenUrl(['TENANT_ADMIN'], null)).toBe('/');
  });
});
