import { expressionError, scopeNames } from '../form/expressions';
import { ExpressionError } from './expressionError';
import { compile, RESULT_ROOT, SCOPE_ROOTS, TEMPLATE } from './template';

/**
 * The problems of the templates in one string, as sentences naming the template: syntax, unknown
 * filters, and names outside `roots` (a root of the scope that is never filled where the template
 * stands gets its own sentence). `$names` are Formily's (`$deps`, `$self`) where `formily` is set.
 */
export function templateTextProblems(text: string, roots: readonly string[], options: { formily?: boolean } = {}): string[] {
  const problems: string[] = [];
  const opened = (text.match(/\{\{/g) ?? []).length;
  const matches = [...text.matchAll(TEMPLATE)];
  if (matches.length !== opened) problems.push(`模板 ${text} 有未闭合的 {{`);
  for (const match of matches) {
    const source = match[1];
    let names: string[];
    try {
      const { expression } = compile(source);
      if (!expression) {
        problems.push(`模板 ${text} 中有空的 {{}}`);
        continue;
      }
      const refused = expressionError(expression);
      if (refused) {
        problems.push(`模板 ${text} ${refused.reason}`);
        continue;
      }
      names = scopeNames(expression);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      problems.push(`模板 ${text} ${error.reason}`);
      continue;
    }
    for (const name of names) {
      if (roots.includes(name) || (options.formily && name.startsWith('$'))) continue;
      const known: readonly string[] = [...SCOPE_ROOTS, RESULT_ROOT];
      problems.push(
        known.includes(name)
          ? roots.length
            ? `模板 ${text} 读取的 ${name} 在此处不存在（可用：${roots.join('、')}）`
            : `模板 ${text} 读取的 ${name} 在此处不存在（此处没有可读取的数据）`
          : `模板 ${text} 引用了未知的名称 ${name}（可用：${roots.length ? roots.join('、') : '无'}）`,
      );
    }
  }
  return problems;
}
