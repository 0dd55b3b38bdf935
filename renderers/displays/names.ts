/** The named displays a column may use; displays.tsx implements exactly these (a unit test says so). */
export const DISPLAY_NAMES = ['text', 'dict', 'tag', 'datetime', 'date', 'number', 'count', 'duration', 'phone', 'money', 'percent', 'boolean', 'image', 'link', 'html'] as const;
export type DisplayName = (typeof DISPLAY_NAMES)[number];
