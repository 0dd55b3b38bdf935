import type { OperationDefinition } from '../define';

/** The work side (issue 6): repair, patrol, construction, survey and maintenance work orders. */
export const workOperations: OperationDefinition[] = [];
