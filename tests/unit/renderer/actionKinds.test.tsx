// Issue 33, "Built-ins registered like extensions": every built-in action kind is an entry of the
// action registry (renderers/actions/actionKinds.ts), runAction asks the registry and holds no
// `case` over the kinds, a kind is added by one entry, and a second entry of a name throws.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ACTION_KINDS, actionKindOf, CONSOLE_ACTION_KIND } from '../../../renderers/actions/actionKinds';
import { runAction, type ActionRuntime } from '../../../renderers/actions/runAction';
import { Registry } from '../../../renderers/registry';
import type { Action } from '../../../renderers/schema/types';
import { fakeServices } from './harness';

const pageSchema = JSON.parse(readFileSync(join(process.cwd(), 'schemas/page.schema.json'), 'utf8')) as {
  $defs: Record<string, { properties?: { type?: { const?: string } } }>;
};
/** The built-in kinds a chain step may be, as the page language says them (a type with a dot is the console's). */
const STEP_KINDS = (pageSchema.$defs.chainStep as unknown as { else: { oneOf: Array<{ $ref: string }> } }).else.oneOf.map((ref) => pageSchema.$defs[ref.$ref.replace('#/$defs/', '')].properties?.type?.const);

function runtime(overrides: Partial<ActionRuntime> = {}): ActionRuntime {
  return { services: fakeServices(), refresh: vi.fn(), openForm: vi.fn(), ...overrides };
}

describe('the action registry', () => {
  it('holds every built-in kind the page language names, each saying what it resolves and whether it answers', () => {
    expect(ACTION_KINDS.names().sort()).toEqual([...STEP_KINDS].sort());
    for (const name of ACTION_KINDS.names()) {
      const kind = ACTION_KINDS.get(name);
      expect(Array.isArray(kind?.templates), name).toBe(true);
      expect(typeof kind?.answers, name).toBe('boolean');
    }
    expect(ACTION_KINDS.get('call')?.answers).toBe(true);
    expect(ACTION_KINDS.get('navigate')?.templates).toEqual(['to', 'query']);
  });

  it('a type with a dot is the console’s action (RendererServices.actions), never a built-in’s name', () => {
    expect(actionKindOf('map.locate')).toBe(CONSOLE_ACTION_KIND);
    expect(CONSOLE_ACTION_KIND.answers).toBe(true);
    expect(CONSOLE_ACTION_KIND.templates).toEqual(['params']);
    expect(actionKindOf('mapLocate')).toBeUndefined();
    expect(actionKindOf('call')).toBe(ACTION_KINDS.get('call'));
    expect(ACTION_KINDS.names().filter((name) => name.includes('.'))).toEqual([]);
  });

  it('runAction asks the registry: no case over the built-in kinds in runAction.ts', () => {
    const source = readFileSync(join(process.cwd(), 'renderers/actions/runAction.ts'), 'utf8');
    expect(source).not.toMatch(/\bcase\s+['"]/);
    expect(source).not.toMatch(/\bswitch\s*\(/);
  });

  it('a second entry of a name throws, built-in or not', () => {
    expect(() => ACTION_KINDS.register('call', { answers: false, templates: [], run: () => undefined })).toThrow('动作类型 call 已注册');
    const registry = new Registry<number>('组件类型').register('gauge', 1);
    expect(() => registry.register('gauge', 2)).toThrow('组件类型 gauge 已注册');
    expect(registry.get('gauge')).toBe(1);
  });

  it('a kind added through the registry runs alone and as a chain step, its answer the next step’s result', async () => {
    const seen: unknown[] = [];
    ACTION_KINDS.register('testEcho', {
      answers: true,
      templates: ['text'],
      run: (action, scope) => `回声：${String((action as unknown as { text: string }).text)}（${String((scope.record as { code?: string } | undefined)?.code)}）`,
    });
    const echo = { type: 'testEcho', label: '回声', text: '你好' } as unknown as Action;
    expect(await runAction(echo, { record: { code: 'D-1' } }, runtime())).toBe('回声：你好（D-1）');

    const services = fakeServices({ notify: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: (text: string) => seen.push(text) } });
    const chain = { type: 'chain', label: '链', steps: [{ type: 'testEcho', text: '一' }, { type: 'showResult', title: '结果' }] } as unknown as Action;
    await runAction(chain, { record: { code: 'D-2' } }, runtime({ services }));
    expect(seen).toEqual(['结果：回声：一（D-2）']);
  });

  it('a kind nobody registered is refused in Chinese', async () => {
    await expect(runAction({ type: 'teleport', label: '传送' } as unknown as Action, {}, runtime())).rejects.toThrow('未注册的动作类型 teleport');
  });
});
