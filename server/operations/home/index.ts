import type { OperationDefinition } from '../../core/operation';
import { fieldHome } from './fieldHome';
import { platformHome } from './platformHome';
import { tenantHome } from './tenantHome';

/**
 * 工作台's figures (issue 34): one operation per kind of home — a tenant's staff, the field staff,
 * the platform's staff — each counting what the lists behind its figures count.
 */
export const homeOperations: OperationDefinition[] = [tenantHome, fieldHome, platformHome];
