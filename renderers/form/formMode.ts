import { resolveTemplate } from '../schema/template';
import type { FormPage } from '../schema/types';

function hasEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value === 'object') return Object.values(value).some(hasEmptyValue);
  return false;
}

/**
 * Create mode: nothing to load (no load operation, or its param lacks a value such as params.id).
 * In edit mode the load param names the record.
 */
export function isCreating(page: FormPage, params: Record<string, unknown>): boolean {
  if (!page.load) return true;
  return hasEmptyValue(resolveTemplate(page.load.param ?? {}, { params }));
}

const VERB = /^(新增|新建|添加|编辑|修改)/;

/**
 * A form's title as its drawer, modal or card shows it. A form that both creates and edits one
 * kind of record (it names a `createOperation`) is titled by its entity, 用户: 新增用户 when it
 * creates, 编辑用户 when it edits. Other forms do one thing and their title says it (派单, 重置密码).
 */
export function formTitle(page: FormPage, params: Record<string, unknown>): string {
  if (!page.submit.createOperation || VERB.test(page.title)) return page.title;
  return `${isCreating(page, params) ? '新增' : '编辑'}${page.title}`;
}
