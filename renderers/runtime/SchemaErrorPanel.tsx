import { Alert } from 'antd';
import type { SchemaProblem } from '../schema/validate';
import { CodeText } from './text';

/** A page schema that fails validation: the file, and each problem with its JSON pointer. */
export function SchemaErrorPanel({ file, problems }: { file: string; problems: readonly SchemaProblem[] }) {
  return (
    <Alert
      type="error"
      showIcon
      data-testid="schema-error"
      message={`页面模式有误：${file}`}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {problems.map((problem) => (
            <li key={`${problem.pointer} ${problem.message}`}>
              <CodeText>{problem.pointer}</CodeText> {problem.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}
