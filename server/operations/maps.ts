import type { OperationDefinition } from './define';

/** Filled in by issue 5: place search and reverse geocoding behind a provider. */
export const MAP_OPERATIONS: OperationDefinition[] = [];
