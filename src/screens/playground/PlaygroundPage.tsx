import { Alert, Button, Card, Col, Input, Result, Row, Select, Space, Switch, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { loadPageSchema, pageFile, pageRefs, pageViews } from '../../../renderers/pages';
import { composeFile, parseViewRef, type ComposeProblem } from '../../../renderers/schema/compose';
import { ConsolePage } from '../../renderer/ConsolePage';
import { findMenuByUrl, flattenMenu } from '../../session/menu';
import { sessionAtom } from '../../session/session';

export const PLATFORM_ROLES = ['PLATFORM_ADMIN', 'PLATFORM_OPERATOR'];

const STARTER = JSON.stringify(
  {
    $schema: '../../page.schema.json',
    schemaVersion: 1,
    kind: 'dashboard',
    title: '试验页面',
    widgets: [{ type: 'statistic', title: '未读日常阅读', operation: 'notification.count', valueField: 'dailyCount', display: 'count' }],
  },
  null,
  2,
);

/**
 * The shared fragments (schemas/fragments) and entity definitions (schemas/entities), so a `$ref` or
 * an `entity` typed here resolves as the build resolves it.
 */
const FRAGMENTS = import.meta.glob<unknown>(['../../../schemas/fragments/**/*.json', '../../../schemas/entities/**/*.json'], { eager: true, import: 'default' });
const readFragment = (file: string): unknown => FRAGMENTS[`../../../${file}`];

/** Every permission string a schema names, so the playground can show every action. */
function permissionsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => permissionsIn(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'permission' && typeof item === 'string') found.push(item);
      else permissionsIn(item, found);
    }
  }
  return found;
}

/** Edit a page schema on the left, see it rendered against the platform on the right. */
export default function PlaygroundPage() {
  const session = useAtomValue(sessionAtom);
  const [text, setText] = useState(STARTER);
  const [view, setView] = useState('playground/page');
  const [allButtons, setAllButtons] = useState(true);
  const parsed = useMemo<{ value?: unknown; error?: string; problems?: ComposeProblem[] }>(() => {
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      return { error: (error as Error).message };
    }
    // Composed as the build composes a file: fragments, the parameters of the view, column filters.
    const composed = composeFile(value, pageFile(view), parseViewRef(view).params, readFragment);
    return composed.problems.length ? { problems: composed.problems } : { value: composed.value };
  }, [text, view]);
  const allowed = import.meta.env.DEV || session?.user.roleList.some((role) => PLATFORM_ROLES.includes(role));
  if (!allowed) return <Result status="403" title="403" subTitle="页面试验场仅对平台人员与开发环境开放" />;

  const menu = session ? flattenMenu(session.menus).find((m) => m.fileUrl === view) : undefined;
  const buttons = allButtons ? permissionsIn(parsed.value) : undefined;

  // The page as built (composed); a page with parameters opens with its first combination.
  const open = async (next: string) => {
    const [ref] = await pageRefs(next);
    setView(ref);
    setText(JSON.stringify(await loadPageSchema(ref), null, 2));
  };

  return (
    <Row gutter={16} data-testid="playground">
      <Col xs={24} xl={10}>
        <Card
          title="页面模式"
          extra={
            <Space>
              <Select showSearch placeholder="打开已有页面" style={{ width: 220 }} options={pageViews().map((v) => ({ value: v, label: v }))} onChange={(v: string) => void open(v)} />
              <Button onClick={() => setText(JSON.stringify(JSON.parse(text) as unknown, null, 2))} disabled={Boolean(parsed.error)}>
                格式化
              </Button>
            </Space>
          }
        >
          <Space style={{ marginBottom: 8 }}>
            <Typography.Text type="secondary">显示全部按钮</Typography.Text>
            <Switch checked={allButtons} onChange={setAllButtons} />
            {menu && <Typography.Text type="secondary">（菜单：{findMenuByUrl(session?.menus ?? [], menu.resourceUrl)?.resourceName}）</Typography.Text>}
          </Space>
          <Input.TextArea
            aria-label="页面模式 JSON"
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoSize={{ minRows: 24, maxRows: 48 }}
            spellCheck={false}
            style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 }}
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        {parsed.error ? (
          <Alert type="error" showIcon message="JSON 格式错误" description={parsed.error} />
        ) : parsed.problems ? (
          <Alert type="error" showIcon message="页面模式无法组合" description={parsed.problems.map((p) => `${p.file} ${p.pointer} ${p.message}`).join('\n')} />
        ) : (
          <ConsolePage view={view} menu={menu} schema={parsed.value} buttons={buttons} />
        )}
      </Col>
    </Row>
  );
}
