// Where a JSON text broke, in Chinese: the line, the column and what stands there (issue 33).
// No import: scripts/pageSources.ts (which the build's plugins load) reads page files with it.

/** Line and column (from 1) of a character offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * Where a JSON text first goes wrong (the offset of the character that should not be there, or the
 * text's length when it ends too early), by a scan of its own: V8's messages do not always say.
 */
export function errorOffset(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at += 1;
  };
  const string = () => {
    if (text[at] !== '"') fail();
    at += 1;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') {
        at += 1;
        if (at < text.length && !'"\\/bfnrtu'.includes(text[at])) fail();
      } else if (text.charCodeAt(at) < 0x20) fail();
      at += 1;
    }
    if (at >= text.length) fail();
    at += 1;
  };
  const value = (): void => {
    space();
    if (at >= text.length) fail();
    const char = text[at];
    if (char === '{') {
      at += 1;
      space();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      for (;;) {
        space();
        string();
        space();
        if (text[at] !== ':') fail();
        at += 1;
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return;
        } else fail();
      }
    }
    if (char === '[') {
      at += 1;
      space();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return;
        } else fail();
      }
    }
    if (char === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) fail();
    at += (literal as RegExpExecArray)[0].length;
  };
  try {
    value();
    space();
    return at < text.length ? at : -1;
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}

/** The Chinese sentence for a text that is not JSON: where, and what stands there. */
export function jsonSyntaxMessage(text: string, _error?: Error): string {
  const found = errorOffset(text);
  const offset = found < 0 ? text.length : found;
  const { line, column } = lineAndColumn(text, offset);
  if (offset >= text.length) return `第 ${line} 行第 ${column} 列：JSON 不完整（文件在此结束，缺少闭合的括号、引号或值）`;
  const char = text[offset];
  const hint =
    char === '}' || char === ']'
      ? '（多余的逗号或括号，或缺少值）'
      : char === "'"
        ? '（JSON 的字符串与属性名要用双引号）'
        : /["\d\w{[]/.test(char)
          ? '（前面缺少逗号或冒号）'
          : '';
  return `第 ${line} 行第 ${column} 列：不是合法的 JSON，此处的 ${JSON.stringify(char)} 不应出现${hint}`;
}

