import { Tag } from 'antd';
import { useAtomValue } from 'jotai';
import { dictionaryColour, dictionaryLabel } from '../../session/dictionary';
import { sessionAtom } from '../../session/session';

/**
 * A template's or a version's state (草稿, 已发布, 修订中, 历史版本) in the colour its
 * form_template_state item carries, as every state tag of the console (issue 34).
 */
export function TemplateStateTag({ state }: { state: string }) {
  const dictionaries = useAtomValue(sessionAtom)?.dictionaries ?? {};
  return <Tag color={dictionaryColour(dictionaries, 'form_template_state', state)}>{dictionaryLabel(dictionaries, 'form_template_state', state)}</Tag>;
}
