import type { OperationDefinition } from '../../core/operation';
import { formTemplateOperations } from './templates';

/** Dynamic forms (issue 6): the survey, construction and operations templates and their versions. */
export const formOperations: OperationDefinition[] = [...formTemplateOperations];
