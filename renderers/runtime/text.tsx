import { theme } from 'antd';
import type { CSSProperties, MouseEventHandler, ReactNode } from 'react';

// Text styles of antd's Typography for what a page's first paint shows (a description, a count, a
// link in a cell), drawn with the theme's tokens: antd's Typography, with its editable and
// copyable parts, weighed 7 KiB gzip on every list page for these alone (issue 35). The class
// names stay antd's, so that what finds text by them still does.

const LINK_CSS = `.console-link { color: var(--console-link); text-decoration: none; cursor: pointer; transition: color 0.3s; }
.console-link:hover { color: var(--console-link-hover); }
.console-link:active { color: var(--console-link-active); }`;

/** Secondary text (antd's `Typography.Text type="secondary"`, or its Paragraph with `block`). */
export function SecondaryText({ children, block = false, style }: { children: ReactNode; block?: boolean; style?: CSSProperties }) {
  const { token } = theme.useToken();
  const Element = block ? 'div' : 'span';
  return (
    <Element className="ant-typography ant-typography-secondary" style={{ color: token.colorTextSecondary, ...(block ? { marginBottom: '1em' } : {}), ...style }}>
      {children}
    </Element>
  );
}

/** A link in the theme's link colours (antd's `Typography.Link`). */
export function TextLink({ href, onClick, children }: { href: string; onClick?: MouseEventHandler<HTMLAnchorElement>; children: ReactNode }) {
  const { token } = theme.useToken();
  const colours = { '--console-link': token.colorLink, '--console-link-hover': token.colorLinkHover, '--console-link-active': token.colorLinkActive } as CSSProperties;
  return (
    <>
      <style href="console-link" precedence="default">
        {LINK_CSS}
      </style>
      <a className="ant-typography console-link" href={href} onClick={onClick} style={colours}>
        {children}
      </a>
    </>
  );
}

/** Inline code (antd's `Typography.Text code`). */
export function CodeText({ children }: { children: ReactNode }) {
  return (
    <code
      className="ant-typography"
      style={{ margin: '0 0.2em', paddingInline: '0.4em', paddingBlock: '0.2em 0.1em', fontSize: '85%', fontFamily: 'SFMono-Regular, Consolas, "Liberation Mono", Menlo, Courier, monospace', background: 'rgba(150, 150, 150, 0.1)', border: '1px solid rgba(100, 100, 100, 0.2)', borderRadius: 3 }}
    >
      {children}
    </code>
  );
}
