import { PlusOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { ActionIconName } from '../schema/types';

/**
 * The icons an action's button may show (`"icon": "PlusOutlined"`), by their @ant-design/icons
 * names (ACTION_ICON_NAMES): only what pages use, imported here so a list page does not download
 * the icon set (each one is about 0.3 KiB of the list page's 490 KiB budget).
 * page.schema.json allows exactly these names (tests/contract/pageModel.test.ts keeps them the same).
 */
export const ACTION_ICONS: Readonly<Record<ActionIconName, ComponentType<{ 'aria-hidden'?: boolean }>>> = {
  PlusOutlined,
};
