import type { ThemeConfig } from 'antd';

/**
 * The console's antd theme (issue 21, accessibility). antd's default blue (#1677ff) gives 4.1:1
 * against white, both as text (links, the active tab) and behind white text (primary buttons, the
 * selected menu entry), and its descriptive grey (45 % black) 3.4:1; WCAG 2 AA asks 4.5:1 for
 * body text. The console uses the next shade of the same blue, a darker grey, darker red, green
 * and orange, and the text shade of each preset tag colour that reads at 4.5:1 on that colour's own light background.
 */
export const ACCESSIBLE_BLUE = '#0958d9';
/** The next two shades of that blue (9.0:1 and 12.1:1 on white), for hover and press. */
export const ACCESSIBLE_BLUE_HOVER = '#003eb3';
export const ACCESSIBLE_BLUE_ACTIVE = '#002c8c';

/** Preset tag colours whose shade 7 (antd's tag text) reads below 4.5:1 on their shade 1, with the shade that does. */
const TAG_TEXT_SHADES = {
  volcano7: '#ad2102',
  orange7: '#ad4e00',
  gold7: '#874d00',
  yellow7: '#876800',
  lime7: '#3f6600',
  green7: '#237804',
  cyan7: '#006d75',
} as const;

export function consoleTheme(motion: boolean): ThemeConfig {
  return {
    token: {
      colorPrimary: ACCESSIBLE_BLUE,
      colorInfo: ACCESSIBLE_BLUE,
      colorLink: ACCESSIBLE_BLUE,
      // Hovered and pressed links and buttons get darker, not lighter: antd's lighter hover of the
      // blue above read 2.7:1 (更多 under the pointer, the axe check of an open confirmation).
      colorLinkHover: ACCESSIBLE_BLUE_HOVER,
      colorPrimaryHover: ACCESSIBLE_BLUE_HOVER,
      colorLinkActive: ACCESSIBLE_BLUE_ACTIVE,
      colorPrimaryActive: ACCESSIBLE_BLUE_ACTIVE,
      // Red, green and orange as text on white and behind white text (danger links and buttons,
      // status tags, form errors): antd's #ff4d4f, #52c41a and #faad14 read 3.3, 2.1 and 1.8:1.
      colorError: '#cf1322',
      colorSuccess: '#237804',
      colorWarning: '#ad4e00',
      // A status tag (success, warning) is that colour on its light background, which antd derives
      // from the colour: from the darker green above it derives #adb8a5 (2.7:1), from the orange
      // #ede4d5 (4.3:1). The backgrounds and borders of antd's own green and orange read 5.4 and 5.1:1.
      colorSuccessBg: '#f6ffed',
      colorSuccessBorder: '#b7eb8f',
      colorWarningBg: '#fff7e6',
      colorWarningBorder: '#ffd591',
      // 60 % black on white: 5.7:1 (descriptions' labels, secondary typography, hints).
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
      borderRadius: 6,
      motion,
      ...TAG_TEXT_SHADES,
    },
  };
}
