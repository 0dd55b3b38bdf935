import type { OperationDefinition } from '../core/operation';
import type { ParamSchema } from '../core/params';
import { loadEntities } from './definition';
import { ENTITY_EXTENSIONS } from './extensions';
import { entityOperations, type EntityExtension } from './operations';
import { answerSchemas } from './schemas';

export { loadEntities, readEntities, entityOperationNames, type Entity, type EntityProblem } from './definition';
export { ensureEntityTables, entitySeedTables, entityTablesLine } from './tables';

/** The operations every entity definition under schemas/entities serves (issue 25). */
export function entityOperationDefinitions(): OperationDefinition[] {
  return loadEntities().flatMap((entity) => entityOperations(entity, ENTITY_EXTENSIONS[entity.name]));
}

/** The answer schemas of what an extension adds to a record: its SQL columns and its computed fields. */
function computedSchemas(extension: EntityExtension | undefined): Record<string, ParamSchema> {
  return { ...Object.fromEntries(Object.entries(extension?.columns ?? {}).map(([name, column]) => [name, column.schema])), ...extension?.computed?.schema };
}

/** The answers' `data` of the entities' operations, for the generated contracts (scripts/contracts.ts). */
export function entityAnswerSchemas(): Record<string, ParamSchema> {
  return Object.assign({}, ...loadEntities().map((entity) => answerSchemas(entity, computedSchemas(ENTITY_EXTENSIONS[entity.name]), ENTITY_EXTENSIONS[entity.name]?.omit))) as Record<string, ParamSchema>;
}
