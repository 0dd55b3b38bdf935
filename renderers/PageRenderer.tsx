import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { loadPageSchema, PageComposeError, pageFile } from './pages';
import { KIND_LOADERS, PAGE_KIND_NAMES, type KindProps } from './kinds';
import { lazyView } from './runtime/lazyView';
import { MissingNotice } from './runtime/MissingNotice';
import { PageSkeleton } from './runtime/PageSkeleton';
import { SchemaErrorPanel } from './runtime/SchemaErrorPanel';
import type { PageKind, PageSchema } from './schema/types';
import { checkPage, type PageCheck } from './schema/checkPage';
import type { SchemaProblem } from './schema/validate';

/**
 * The renderer registry: page kind → renderer (renderers/kinds), each loaded only when a page of
 * that kind is shown, so a list page does not download echarts and a dashboard does not download Formily.
 */
const RENDERERS = Object.fromEntries(PAGE_KIND_NAMES.map((kind) => [kind, lazyView(KIND_LOADERS[kind])])) as Record<PageKind, ComponentType<KindProps>>;

export const PAGE_KINDS = PAGE_KIND_NAMES;

type Loaded =
  | { view: string; status: 'ready'; page: PageSchema }
  | { view: string; status: 'invalid'; problems: SchemaProblem[] }
  | { view: string; status: 'missing'; message: string };

export interface PageRendererProps {
  /** The view file name, `<area>/<view>` under schemas/pages. */
  view: string;
  params?: Record<string, unknown>;
  /** Renders this schema instead of loading the view's file (the playground). */
  schema?: unknown;
}

/** Loads a page schema, validates it and renders it with the renderer of its kind. */
export default function PageRenderer({ view, params, schema }: PageRendererProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let alive = true;
    const settle = (checked: PageCheck) => {
      if (alive) setLoaded(checked.ok ? { view, status: 'ready', page: checked.page } : { view, status: 'invalid', problems: checked.problems });
    };
    const missing = (error: Error) =>
      alive &&
      setLoaded(
        error instanceof PageComposeError
          ? { view, status: 'invalid', problems: error.problems.map(({ pointer, message }) => ({ pointer, message })) }
          : { view, status: 'missing', message: error.message },
      );
    // A given schema (the playground) comes composed: the playground composes what it is typed.
    if (schema !== undefined) checkPage(schema, 'given').then(settle, missing);
    else
      loadPageSchema(view)
        .then((value) => checkPage(value, 'file'))
        .then(settle)
        .catch(missing);
    return () => {
      alive = false;
    };
  }, [view, schema]);

  if (!loaded || loaded.view !== view) return <PageSkeleton />;
  if (loaded.status === 'missing') return <MissingNotice title="页面模式不存在" detail={loaded.message} />;
  if (loaded.status === 'invalid') return <SchemaErrorPanel file={pageFile(view)} problems={loaded.problems} />;
  const Renderer = RENDERERS[loaded.page.kind];
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Renderer page={loaded.page} view={view} params={params} />
    </Suspense>
  );
}
