import { useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { RendererContext } from '../../../renderers/services';
import { useRendererServices } from '../../renderer/ConsolePage';
import type { ScreenProps } from '../registry';
import { kindOfPath } from './designer';
import { TemplateEditor } from './TemplateEditor';
import { TemplateList } from './TemplateList';

/** The operations the designer's buttons call; each shows only when the route's button list holds it. */
export interface TemplateRights {
  insert: boolean;
  modify: boolean;
  publish: boolean;
  duplicate: boolean;
  delete: boolean;
}

/**
 * 勘察 / 施工 / 运维模板设置 (/dynamic/form/{1,2,3}/config): one screen for the three kinds of
 * dynamic form template, the kind taken from the url. The list of the tenant's templates of the
 * kind, and the designer that edits one (a new one, or the next draft of a published one).
 */
export default function FormTemplatePage({ menu }: ScreenProps) {
  const { pathname } = useLocation();
  const kind = kindOfPath(menu.resourceUrl) ?? kindOfPath(pathname) ?? 1;
  const services = useRendererServices(menu);
  const rights = useMemo<TemplateRights>(() => {
    const held = new Set(menu.buttonList.map((button) => button.resourceUrl));
    return {
      insert: held.has('activeForm.template.insert'),
      modify: held.has('activeForm.template.modify'),
      publish: held.has('activeForm.template.publish'),
      duplicate: held.has('activeForm.template.duplicate'),
      delete: held.has('activeForm.template.delete'),
    };
  }, [menu]);
  /** The template open in the designer: an id, 'new', or none (the list). */
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  return (
    <RendererContext.Provider value={services}>
      <div data-testid="form-template-page" data-kind={kind}>
        {editing === null ? (
          <TemplateList kind={kind} rights={rights} title={menu.resourceName} onEdit={(id) => setEditing(id)} onCreate={() => setEditing('new')} />
        ) : (
          <TemplateEditor key={String(editing)} kind={kind} templateId={editing === 'new' ? null : editing} rights={rights} onClose={() => setEditing(null)} />
        )}
      </div>
    </RendererContext.Provider>
  );
}
