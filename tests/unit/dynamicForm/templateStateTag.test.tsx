// A form template's state is coloured by its form_template_state item, as every state tag of the
// console (issue 34: the list drew 已发布 green and 修订中 orange by a table of its own).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import dictionaries from '../../../schemas/dictionaries.json';
import { consoleStore, sessionAtom } from '../../../src/session/session';
import type { Dictionary } from '../../../src/session/types';
import { TemplateStateTag } from '../../../src/screens/dynamicForm/TemplateStateTag';
import { renderConsole, signIn } from '../account/harness';

interface DictionaryFile {
  dictionaries: Array<{ dictType: string; dictName: string; items: Array<{ value: string; label: string; color?: Dictionary['children'][number]['dictColor'] }> }>;
}

function withTemplateStates() {
  const session = signIn();
  const entry = (dictionaries as DictionaryFile).dictionaries.find((dictionary) => dictionary.dictType === 'form_template_state');
  if (!entry) throw new Error('form_template_state is not in schemas/dictionaries.json');
  const dictionary: Dictionary = {
    dictType: entry.dictType,
    dictName: entry.dictName,
    children: entry.items.map((item) => ({ dictValue: item.value, dictLabel: item.label, dictColor: item.color })),
  };
  consoleStore.set(sessionAtom, { ...session, dictionaries: { form_template_state: dictionary } });
}

describe('TemplateStateTag', () => {
  it('draws each state in the colour and with the label of its dictionary item', () => {
    withTemplateStates();
    renderConsole(
      <>
        <TemplateStateTag state="published" />
        <TemplateStateTag state="revising" />
        <TemplateStateTag state="draft" />
        <TemplateStateTag state="superseded" />
      </>,
    );
    expect(screen.getByText('已发布').className).toContain('ant-tag-success');
    expect(screen.getByText('修订中').className).toContain('ant-tag-processing');
    expect(screen.getByText('草稿').className).toContain('ant-tag-default');
    expect(screen.getByText('历史版本').className).toContain('ant-tag-default');
  });
});
