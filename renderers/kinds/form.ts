import { ROOTS, type Json, type KindReferences, type PageKindModule } from './types';

/** The form kind: a Formily schema with load and submit operations. */
export type { FormPage as Page } from '../schema/types';

export const load: PageKindModule['load'] = () => import('../form/FormRenderer') as ReturnType<PageKindModule['load']>;

export function references(page: Json, check: KindReferences): void {
  const { operation, templates } = check;
  if (page.load) {
    operation('/load/operation', (page.load as Json).operation, ['call', 'get']);
    templates('/load/param', (page.load as Json).param, ROOTS.formLoad);
  }
  operation('/submit/operation', (page.submit as Json).operation, ['call']);
  templates('/submit/param', (page.submit as Json).param, ROOTS.formSubmit);
  if ((page.submit as Json).createOperation) operation('/submit/createOperation', (page.submit as Json).createOperation, ['call']);
  check.invalidates('/submit/invalidates', (page.submit as Json).invalidates);
  // What the submit answered is shown as `result` (a secret the create answers once).
  check.submitResult((page.submit as Json).showResult as Json | undefined);
  check.formily('/schema', page.schema, ROOTS.formFields);
}

export function starterOperations(view: string): Record<string, string> {
  const base = view.replace(/\//g, '.');
  return { detail: `${base}.detail`, save: `${base}.save` };
}

export function starter(title: string, view: string): Json {
  const ops = starterOperations(view);
  return {
    title,
    load: { operation: ops.detail, param: { id: '{{params.id | number}}' } },
    submit: { operation: ops.save, param: { id: '{{params.id | number}}', values: '{{values}}' }, successMessage: '设置成功！' },
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: '名称', required: true, 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': 'plainText' },
      },
    },
  };
}
