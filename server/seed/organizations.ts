import type { Row } from '../db/bulk';
import { ORGANIZATION_TYPE, PLATFORM_CODE } from '../domain/organizations';
import { readFixture } from './fixtures/fixture';

/** An organisation of the demo world; codes extend their parent's. */
export interface SeedOrganization {
  code: string;
  name: string;
  type: number;
  children?: SeedOrganization[];
}

/** An organisation as organizations.json writes it: its type by name. */
interface FixtureOrganization extends Omit<SeedOrganization, 'type' | 'children'> {
  type: keyof typeof ORGANIZATION_TYPE;
  children?: FixtureOrganization[];
}

const typed = ({ type, children, ...organization }: FixtureOrganization): SeedOrganization => ({
  ...organization,
  type: ORGANIZATION_TYPE[type],
  ...(children ? { children: children.map(typed) } : {}),
});

/** The platform, its two tenants (organizations.json), their projects, areas (nested), departments and a virtual node each. */
export const ORGANIZATIONS: SeedOrganization = {
  code: PLATFORM_CODE,
  name: '云联物联网平台',
  type: ORGANIZATION_TYPE.platform,
  children: readFixture<{ TENANTS: FixtureOrganization[] }>('organizations').TENANTS.map(typed),
};

/** Every organisation, parents first, with its parent code. */
export function flattenOrganizations(root: SeedOrganization = ORGANIZATIONS): Array<SeedOrganization & { parentCode: string | null }> {
  const out: Array<SeedOrganization & { parentCode: string | null }> = [];
  const walk = (node: SeedOrganization, parentCode: string | null) => {
    out.push({ ...node, parentCode });
    node.children?.forEach((child) => walk(child, node.code));
  };
  walk(root, null);
  return out;
}

export function organizationRows(): Row[] {
  return flattenOrganizations().map((org, index) => ({
    id: index + 1,
    code: org.code,
    name: org.name,
    type: org.type,
    parent_code: org.parentCode,
    sort: index + 1,
  }));
}
