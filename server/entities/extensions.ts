import { appVersionExtension } from '../operations/devices/appVersions';
import { addressExtension } from '../operations/mall/addresses';
import { invoiceTitleExtension } from '../operations/mall/invoices';
import { materialExtension } from '../operations/office/materials';
import { templateExtension } from '../operations/office/templates';
import type { EntityExtension } from './operations';

/**
 * The code areas moved onto entity definitions keep (issue 25), by entity name: see
 * EntityExtension. A new screen has none.
 */
export const ENTITY_EXTENSIONS: Readonly<Record<string, EntityExtension>> = {
  'app.version': appVersionExtension,
  'invoice.title': invoiceTitleExtension,
  'mall.address': addressExtension,
  material: materialExtension,
  template: templateExtension,
};
