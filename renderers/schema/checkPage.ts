import { unregisteredDisplays } from './displays';
import { loadExpressionEngine, needsExpressionLoad } from './template';
import type { PageSchema } from './types';
import type { SchemaProblem } from './validate';

export type PageCheck = { ok: true; page: PageSchema } | { ok: false; problems: SchemaProblem[] };

/** Where a page schema comes from: a file of schemas/pages, or handed to the renderer (the playground). */
export type PageSource = 'file' | 'given';

/**
 * Checks a page schema before it is rendered. The production build validates every file of
 * schemas/pages against page.schema.json and fails on any problem (scripts/pageValidatorPlugin.ts),
 * so a bundled file only has its display names checked here, and the page does not download the
 * validator (16 KiB gzip, issue 8). In development and tests, and for a schema handed to the
 * renderer, the validator is loaded and every problem is shown with its pointer.
 */
export async function checkPage(value: unknown, source: PageSource): Promise<PageCheck> {
  let checked: PageCheck;
  if (source === 'file' && import.meta.env.PROD) {
    const page = value as PageSchema;
    const problems = unregisteredDisplays(page);
    checked = problems.length === 0 ? { ok: true, page } : { ok: false, problems };
  } else {
    const { validatePageSchema } = await import('./validate');
    checked = validatePageSchema(value);
  }
  // A page whose templates go beyond plain paths renders once what evaluates them is here: the
  // comparison compiler (a row action's `{{record.state === 'created'}}`), and jsep only for an
  // expression beyond it. A list of `{{record.code}}` templates downloads neither.
  if (checked.ok && needsExpressionLoad(checked.page)) await loadExpressionEngine(checked.page);
  return checked;
}
