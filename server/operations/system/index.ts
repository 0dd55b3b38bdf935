import { dictionaryOperations } from './dictionaries';
import { labelOperations } from './labels';
import { organizationOperations } from './organizations';
import { resourceOperations } from './resources';
import { roleOperations } from './roles';
import { statusOperations } from './status';
import { tenantOperations } from './tenants';

/** System administration: roles, organisations, dictionaries, menu resources, tenants and regions, label configuration, the system status. */
export const systemOperations = [
  ...roleOperations,
  ...organizationOperations,
  ...dictionaryOperations,
  ...resourceOperations,
  ...tenantOperations,
  ...labelOperations,
  ...statusOperations,
];
