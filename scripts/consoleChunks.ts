import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// How the production build groups modules into chunks (issue 35). Left to itself, Rolldown makes
// a chunk for every set of lazy imports that reach a module: with some 500 lazy imports (page
// schemas, screens, icons) a list page's first paint fetched 107 files, most of them a few
// hundred bytes of antd, each compressed alone and each named again in the preload tables of the
// chunks that import it. Here every module that the entry, the sign-in page, the frame or a list
// page reaches statically goes to a chunk named by the *anchors* (ANCHORS) that reach it: what
// the entry reaches is one chunk; otherwise the shells that reach it, and the page renderers that
// do unless every page host does (then it loads with every page anyway). A route thus loads only
// chunks it needs all of, in a few dozen files instead of a hundred.

const root = fileURLToPath(new URL('..', import.meta.url));

/** The route-level modules whose static imports decide the groups, by short name. */
const ANCHORS: Readonly<Record<string, string>> = {
  entry: 'src/main.tsx',
  login: 'src/screens/public/LoginPage.tsx',
  frame: 'src/frame/MainFrame.tsx',
  foreign: 'src/frame/ForeignFrame.tsx',
  page: 'src/renderer/ConsolePage.tsx',
  list: 'renderers/list/ListRenderer.tsx',
  // Not grouped for themselves, but they tell apart what only they share with a list page.
  detail: 'renderers/detail/DetailRenderer.tsx',
  form: 'renderers/form/FormRenderer.tsx',
  dashboard: 'renderers/dashboard/DashboardRenderer.tsx',
};
/** A module is grouped only when one of these reaches it: the first paints the budgets are about. */
const GROUPED_FOR: ReadonlySet<string> = new Set(['entry', 'login', 'frame', 'page', 'list']);
/** The shells: what the sign-in page, the frame or an embedded (foreign) page reaches loads with it. */
const SHELLS: readonly string[] = ['login', 'frame', 'foreign'];
/**
 * The shells pages are drawn in: a module that both reach is loaded with every page, whatever
 * its kind, so which page kinds reach it too does not tell its group apart.
 */
const PAGE_SHELLS: readonly string[] = ['frame', 'foreign'];

/**
 * The package indexes that only re-export their modules, and that a page imports by name: an
 * import of one counts as an import of the modules that define the names it imports, not of every
 * module the index re-exports (the build shakes the rest off, and so must the grouping, or every
 * antd component would seem reached by every page, and Formily's array table by every form).
 */
const INDEXES: ReadonlyMap<string, string> = new Map(
  ['antd/es/index.js', '@ant-design/icons/es/index.js', '@formily/antd-v5/esm/index.js'].map((file) => [`${root}node_modules/${file}`, file.split('/').slice(0, file.startsWith('@') ? 2 : 1).join('/')]),
);

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; exports: readonly string[]; code: string | null } | null;
}

/** A module's text as the build sees it (as written when the graph does not hold it). */
function codeOf(graph: ModuleGraph, id: string): string {
  return graph.getModuleInfo(id)?.code ?? readFileSync(id.split('?')[0], 'utf8');
}

/** The names a module imports from a package (`import { Button, Table as T } from 'antd'`); null for a whole-module import. */
function namesImported(code: string, from: string): string[] | null {
  const quoted = `["']${from.replace(/[/.]/g, (c) => `\\${c}`)}["']`;
  if (new RegExp(`import\\s+(?!type\\s)(\\*|\\w+)[^'"]*from\\s*${quoted}`).test(code)) return null;
  const names: string[] = [];
  for (const [, list] of code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g')))
    for (const part of list.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
      if (name) names.push(name);
    }
  return names;
}

/** The module a re-export's specifier names, among the index's imports. */
function resolveIn(graph: ModuleGraph, index: string, specifier: string): string | undefined {
  const base = new URL(specifier, `file://${index}`).pathname;
  const imported = graph.getModuleInfo(index)?.importedIds ?? [];
  return [base, `${base}.js`, `${base}/index.js`].find((candidate) => imported.includes(candidate));
}

/** Whether a module re-exports others (an index, or a folder's index within one). */
const reexports = (graph: ModuleGraph, id: string) => /export\s*(\*|\{[^}]*\})\s*from/.test(codeOf(graph, id));

/**
 * The module that defines `name` for an index: `export { default as Button } from './button'`, or
 * an `export *` whose module exports it, followed through the indexes in between (the icons'
 * index re-exports its icons' index), which count for nothing themselves.
 */
function definitionsOf(graph: ModuleGraph, index: string, name: string, depth = 0): string[] {
  const through = (target: string, inner: string) => {
    const deeper = depth < 4 && reexports(graph, target) ? definitionsOf(graph, target, inner, depth + 1) : [];
    return deeper.length ? deeper : [target];
  };
  const code = codeOf(graph, index);
  for (const [, list, specifier] of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g))
    for (const part of list.split(',')) {
      const [inner, outer = inner] = part.trim().split(/\s+as\s+/);
      if (outer !== name) continue;
      const target = resolveIn(graph, index, specifier);
      if (!target) return [];
      return inner === 'default' ? [target] : through(target, inner);
    }
  for (const [, specifier] of code.matchAll(/export\s*\*\s*from\s*["']([^"']+)["']/g)) {
    const target = resolveIn(graph, index, specifier);
    if (target && graph.getModuleInfo(target)?.exports.includes(name)) return through(target, name);
  }
  return [];
}

/** What a module imports statically, an index counting as the modules of the names imported from it. */
function importsOf(graph: ModuleGraph, id: string): string[] {
  const info = graph.getModuleInfo(id);
  if (!info) return [];
  return info.importedIds.flatMap((imported) => {
    const pkg = INDEXES.get(imported);
    const names = pkg ? namesImported(codeOf(graph, id), pkg) : null;
    return names ? names.flatMap((name) => definitionsOf(graph, imported, name)) : [imported];
  });
}

/** Each module's anchors: those whose static imports reach it. */
function anchorsByModule(graph: ModuleGraph): Map<string, Set<string>> {
  const reached = new Map<string, Set<string>>();
  for (const [anchor, file] of Object.entries(ANCHORS)) {
    const stack = [root + file];
    const seen = new Set<string>();
    while (stack.length) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      let anchors = reached.get(id);
      if (!anchors) reached.set(id, (anchors = new Set()));
      anchors.add(anchor);
      stack.push(...importsOf(graph, id));
    }
  }
  return reached;
}

const anchorFiles: ReadonlySet<string> = new Set(Object.values(ANCHORS).map((file) => root + file));

/**
 * Rolldown's `output.codeSplitting.groups[].name`: the group of a module, or null to leave it to
 * Rolldown (modules no first paint reaches, and the anchors themselves, which stay the chunks
 * their lazy imports load). What the entry reaches is one group of its own.
 */
export function consoleChunkGroups(): (id: string, graph: ModuleGraph) => string | null {
  // Computed once per chunking pass (Rolldown hands every call of a pass the same graph).
  const passes = new WeakMap<ModuleGraph, Map<string, Set<string>>>();
  return (id, graph) => {
    let reached = passes.get(graph);
    if (!reached) passes.set(graph, (reached = anchorsByModule(graph)));
    const anchors = reached.get(id);
    if (!anchors || anchorFiles.has(id) || ![...anchors].some((anchor) => GROUPED_FOR.has(anchor))) return null;
    if (anchors.has('entry')) return 'shared-entry';
    const shells = SHELLS.filter((shell) => anchors.has(shell));
    const pages = PAGE_SHELLS.every((shell) => anchors.has(shell)) ? [] : [...anchors].filter((anchor) => !SHELLS.includes(anchor)).sort();
    return `shared-${[...shells, ...pages].join('-')}`;
  };
}
