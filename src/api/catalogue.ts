import catalogue from '../../schemas/operations.json';

/** How an operation is called (DESIGN.md, "The operation catalogue"). */
export type OperationKind = 'call' | 'page' | 'blob' | 'upload' | 'get';

/**
 * What the console reads of an operation. The production build keeps only these fields, and the
 * title only for exports (scripts/consoleCataloguePlugin.ts): the rest is the server's.
 */
export interface OperationSpec {
  path: string;
  kind: OperationKind;
  /** An export's title names the file when the server sends no name. */
  title?: string;
}

const operations: Readonly<Record<string, OperationSpec>> = catalogue as Record<string, OperationSpec>;

export class UnknownOperationError extends Error {
  constructor(readonly operationName: string) {
    super(`未登记的接口操作：${operationName}`);
    this.name = 'UnknownOperationError';
  }
}

/** Looks an operation up by its catalogue name; an unknown name is a programming error. */
export function findOperation(name: string): OperationSpec {
  const spec = Object.prototype.hasOwnProperty.call(operations, name) ? operations[name] : undefined;
  if (!spec) throw new UnknownOperationError(name);
  return spec;
}

export function operationNames(): string[] {
  return Object.keys(operations);
}
