/**
 * Asked before a form with unsaved input is left (its drawer closed, or its route left). Its own
 * module: the drawer host of every list imports it, and must not bring the form renderer (and
 * Formily) with it.
 */
export const LEAVE_DIRTY_CONFIRM = '表单有未保存的修改，确定离开吗？';
