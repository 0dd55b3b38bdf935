import type { OperationDefinition } from '../define';

/** Filled in by issue 5. */
export const fleetOperations: OperationDefinition[] = [];
