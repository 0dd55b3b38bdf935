import { Badge, Card, Col, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../format/numbers';
import { writeSession } from '../../session/storage';
import type { FigureLink } from './figureLinks';

/**
 * One figure of 工作台: its name, its value and unit, what it means as a status (a dot beside the
 * name: colour is never the only sign — the name says it), and, when it counts a list, a link to
 * that list filtered as it was counted.
 */

/** antd's status colours, by what a figure means. */
export type FigureTone = 'success' | 'processing' | 'warning' | 'error' | 'default';

/** A list total as the home operations answer it: exact, or the list's estimate past 10,000 rows. */
export interface Counted {
  count: number;
  estimated: boolean;
}

export interface FigureProps {
  /** data-testid of the tile: `figure-<name>`. */
  name: string;
  label: string;
  value: number | Counted;
  unit?: string;
  /** Decimals the value may show (0 for counts). */
  decimals?: number;
  tone?: FigureTone;
  link?: FigureLink | null;
  /** A line under the value (what the figure counts, or over when). */
  note?: ReactNode;
}

/** A value as the tile shows it: grouped digits, an estimate as 10,000+ (as the list's pager says it). */
export function figureText(value: number | Counted, decimals = 0): string {
  if (typeof value === 'number') return formatNumber(value, decimals);
  return value.estimated ? `${formatNumber(10_000, 0)}+` : formatNumber(value.count, 0);
}

export function FigureTile({ name, label, value, unit, decimals = 0, tone, link, note }: FigureProps) {
  const text = figureText(value, decimals);
  const body = (
    // Not antd's hoverable: the 快捷入口 below are the page's hoverable tiles.
    <Card size="small" style={{ height: '100%', cursor: link ? 'pointer' : undefined }} styles={{ body: { padding: '12px 16px' } }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
        {tone ? <Badge status={tone} /> : null}
        <Typography.Text type="secondary" style={{ fontSize: 13 }} ellipsis={{ tooltip: label }}>
          {label}
        </Typography.Text>
      </div>
      <div style={{ marginTop: 4, fontSize: 24, lineHeight: '32px', fontWeight: 600, fontVariantNumeric: 'tabular-nums', color: 'rgba(0, 0, 0, 0.88)' }}>
        <span data-testid="figure-value">{text}</span>
        {unit ? <span style={{ marginLeft: 4, fontSize: 13, fontWeight: 400, color: 'rgba(0, 0, 0, 0.6)' }}>{unit}</span> : null}
      </div>
      {note ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {note}
        </Typography.Text>
      ) : null}
    </Card>
  );
  return (
    <div data-testid={`figure-${name}`} style={{ height: '100%' }}>
      {link ? (
        <Link
          to={link.to}
          aria-label={`${label} ${text}${unit ?? ''}，查看列表`}
          onClick={() => writeSession('selectedMenuKey', link.menuCode)}
          style={{ display: 'block', height: '100%' }}
        >
          {body}
        </Link>
      ) : (
        body
      )}
    </div>
  );
}

/** Tiles in a grid: two a row on a phone, up to six on a wide screen. */
export function FigureRow({ children, label }: { children: ReactNode[]; label?: string }) {
  return (
    <Row gutter={[12, 12]} role="group" aria-label={label}>
      {children.map((child, index) => (
        <Col key={index} xs={12} sm={8} md={8} lg={6} xl={4}>
          {child}
        </Col>
      ))}
    </Row>
  );
}
