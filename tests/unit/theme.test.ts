import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { consoleTheme } from '../../src/app/theme';

/** WCAG 2's contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

describe('the console theme (issue 21, colours by meaning in issue 34)', () => {
  const token = theme.getDesignToken(consoleTheme(false));
  it.each(['Success', 'Info', 'Warning', 'Error'] as const)('draws a %s status tag at 4.5:1 or more (its text on its own background)', (status) => {
    const text = token[`color${status}`];
    const background = token[`color${status}Bg`];
    expect(contrast(text, background)).toBeGreaterThanOrEqual(4.5);
  });
});
