// `npm run architecture` (issue 32): the server's layering, in figures anyone can reproduce.
//
// Reads every TypeScript file under server/ with the TypeScript compiler (syntax only, no type
// checking) and prints:
// - the import cycles: strongly connected components of the import graph with more than one file
//   (or a file importing itself). Every import counts: `import`, `import type`, `export … from`,
//   `import()` and `import('…').Type`, since a type-only import ties two modules as tightly for
//   whoever reads or moves them;
// - the imports that cross from one business area into another (see {@link areaOf});
// - the layer imports that must not exist: `http/` or `security/` → `operations/`, and
//   `domain/` or `db/` → `seed/`;
// - the `defineOperation<` generics (each `defineOperation<…>(` written out);
// - the hand-numbered placeholders: every substitution in a template literal that directly
//   follows a `$` (`$${params.length}`, `$${n + 1}`, `$${where.params.length - 1}` …), i.e. a SQL
//   parameter whose number is computed by the code that writes the SQL;
// - the functions longer than their limit (issue 32: 150 lines in seed/, 120 elsewhere), each a
//   function declaration, expression, arrow or method, counted from its first line to its last;
// - the TypeScript lines of server/ (newlines, as `wc -l` counts them).
// tests/contract/serverArchitecture.test.ts asserts the boundaries with these functions.
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const projectRoot = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** One server file (its path relative to server/, with "/") and the server files it imports. */
export interface ServerModule {
  path: string;
  imports: string[];
  source: ts.SourceFile;
}

/** An import from one server file to another (paths relative to server/). */
export interface ImportEdge {
  from: string;
  to: string;
}

export interface ServerFigures {
  cycles: string[][];
  crossArea: ImportEdge[];
  httpSecurityToOperations: ImportEdge[];
  domainDbToSeed: ImportEdge[];
  generics: number;
  placeholders: number;
  longFunctions: LongFunction[];
  lines: number;
  files: number;
}

function typeScriptFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...typeScriptFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found.sort();
}

/** Every module specifier a file names, type-only ones included. */
function moduleSpecifiers(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

function compilerOptions(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile.bind(ts.sys));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file)).options;
}

const toServerPath = (serverRoot: string, file: string): string => relative(serverRoot, file).split(sep).join('/');

/** The server's files and the server files each imports (imports leaving server/ are left out). */
export function serverModules(root = projectRoot): ServerModule[] {
  const serverRoot = join(root, 'server');
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  return typeScriptFiles(serverRoot).map((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const imports = new Set<string>();
    for (const specifier of moduleSpecifiers(source)) {
      const resolved = ts.resolveModuleName(specifier, file, options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = resolve(resolved.resolvedFileName);
      if (target.startsWith(serverRoot + sep) && !target.endsWith('.d.ts')) imports.add(toServerPath(serverRoot, target));
    }
    return { path: toServerPath(serverRoot, file), imports: [...imports].sort(), source };
  });
}

/** The import cycles: strongly connected components (Tarjan) of more than one file, or of a file importing itself. */
export function importCycles(modules: readonly ServerModule[]): string[][] {
  const graph = new Map(modules.map((module) => [module.path, module.imports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** The registry that gathers every area's operations (it imports them all by design). */
const OPERATIONS_REGISTRY = 'operations/index.ts';

/**
 * The business area of a file under operations/: its first folder (`operations/cards/orders.ts` →
 * `cards`), or for a file directly in operations/ its own name (`operations/auth.ts` → `auth`).
 * Null outside operations/ (the list-query module is core/listQuery.ts, below every area).
 */
export function areaOf(path: string): string | null {
  if (!path.startsWith('operations/')) return null;
  const [, first, second] = path.split('/');
  return second === undefined ? first.replace(/\.tsx?$/, '') : first;
}

function edges(modules: readonly ServerModule[]): ImportEdge[] {
  return modules.flatMap((module) => module.imports.map((to) => ({ from: module.path, to })));
}

/** Imports from a file of one area into a file of another (the registry, operations/index.ts, aside). */
export function crossAreaImports(modules: readonly ServerModule[]): ImportEdge[] {
  return edges(modules).filter(({ from, to }) => {
    if (from === OPERATIONS_REGISTRY) return false;
    const fromArea = areaOf(from);
    const toArea = areaOf(to);
    return fromArea !== null && toArea !== null && fromArea !== toArea;
  });
}

const within = (path: string, folders: readonly string[]): boolean => folders.some((folder) => path.startsWith(`${folder}/`));

/** Imports from a file under one of `fromFolders` into one under `toFolders` (folders of server/). */
export function layerImports(modules: readonly ServerModule[], fromFolders: readonly string[], toFolders: readonly string[]): ImportEdge[] {
  return edges(modules).filter(({ from, to }) => within(from, fromFolders) && within(to, toFolders));
}

/** The `defineOperation<…>(` calls that write their type arguments out. */
export function countGenerics(modules: readonly ServerModule[]): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.typeArguments?.length && ts.isIdentifier(node.expression) && node.expression.text === 'defineOperation') count += 1;
    ts.forEachChild(node, visit);
  };
  for (const module of modules) visit(module.source);
  return count;
}

/** The one module that numbers a statement's parameters (`bind`): every other statement numbers through it. */
export const PARAMETER_NUMBERING = 'db/parameters.ts';

/** Template substitutions directly after a `$`: SQL placeholders numbered by hand (outside {@link PARAMETER_NUMBERING}). */
export function countPlaceholders(modules: readonly ServerModule[]): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      const literals = [node.head, ...node.templateSpans.map((span) => span.literal)];
      // Each literal but the last is followed by a substitution.
      for (const literal of literals.slice(0, -1)) if (literal.text.endsWith('$')) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  for (const module of modules) if (!module.path.endsWith(PARAMETER_NUMBERING)) visit(module.source);
  return count;
}

/** A function longer than its folder's limit. */
export interface LongFunction {
  path: string;
  line: number;
  name: string;
  lines: number;
}

/** The most lines a function of server/ may have: 150 in the seed (its generators), 120 elsewhere. */
export const functionLimit = (path: string): number => (path.startsWith('seed/') ? 150 : 120);

/** The functions longer than their limit (a declaration, an expression, an arrow or a method), longest first. */
export function longFunctions(modules: readonly ServerModule[]): LongFunction[] {
  const found: LongFunction[] = [];
  for (const module of modules) {
    const { source } = module;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        if (lines > functionLimit(module.path)) found.push({ path: module.path, line: first + 1, name, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

/** The figures of server/ (see the header). */
export function serverFigures(root = projectRoot): ServerFigures {
  const modules = serverModules(root);
  return {
    cycles: importCycles(modules),
    crossArea: crossAreaImports(modules),
    httpSecurityToOperations: layerImports(modules, ['http', 'security'], ['operations']),
    domainDbToSeed: layerImports(modules, ['domain', 'db'], ['seed']),
    generics: countGenerics(modules),
    placeholders: countPlaceholders(modules),
    longFunctions: longFunctions(modules),
    lines: modules.reduce((sum, module) => sum + (module.source.text.match(/\n/g)?.length ?? 0), 0),
    files: modules.length,
  };
}

function printEdges(title: string, found: readonly ImportEdge[]): void {
  console.log(`\n${title}: ${found.length}`);
  for (const { from, to } of found) console.log(`  ${from} → ${to}`);
}

function main(): void {
  const figures = serverFigures();
  console.log(`import cycles: ${figures.cycles.length} (${figures.cycles.reduce((sum, cycle) => sum + cycle.length, 0)} files)`);
  figures.cycles.forEach((cycle, i) => console.log(`  cycle ${i + 1} (${cycle.length} files): ${cycle.join(', ')}`));
  const byArea = new Map<string, number>();
  for (const { from, to } of figures.crossArea) {
    const key = `${areaOf(from)} → ${areaOf(to)}`;
    byArea.set(key, (byArea.get(key) ?? 0) + 1);
  }
  printEdges('cross-area imports', figures.crossArea);
  if (byArea.size) console.log(`  by area: ${[...byArea].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ${n}`).join('; ')}`);
  printEdges('http/, security/ → operations/', figures.httpSecurityToOperations);
  printEdges('domain/, db/ → seed/', figures.domainDbToSeed);
  console.log(`\ndefineOperation< generics: ${figures.generics}`);
  console.log(`hand-numbered placeholders ($\${…} in a template literal): ${figures.placeholders}`);
  console.log(`functions over their limit (150 lines in seed/, 120 elsewhere): ${figures.longFunctions.length}`);
  for (const { path, line, name, lines } of figures.longFunctions) console.log(`  ${path}:${line} ${name} ${lines} lines`);
  console.log(`TypeScript lines of server/: ${figures.lines} in ${figures.files} files`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
