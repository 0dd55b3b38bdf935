import { dictionaryOperations } from './dictionaries';
import { organizationOperations } from './organizations';
import { resourceOperations } from './resources';
import { roleOperations } from './roles';
import { tenantOperations } from './tenants';

/** System administration: roles, organisations, dictionaries, menu resources, tenants and regions. */
export const systemOperations = [...roleOperations, ...organizationOperations, ...dictionaryOperations, ...resourceOperations, ...tenantOperations];
