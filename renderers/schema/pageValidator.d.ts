declare module 'virtual:page-validator' {
  import type { ErrorObject } from 'ajv';

  /** schemas/page.schema.json compiled at build time (scripts/pageValidatorPlugin.ts). */
  export const validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
}
