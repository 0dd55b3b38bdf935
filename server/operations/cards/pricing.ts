import type { Queryable } from '../../db/database';
import { fenOf, yuan } from '../../domain/cards';
import { fail } from '../../http/envelope';

/**
 * What a tenant pays per card and year for a package: its own negotiated fee standard when it has
 * an enabled one for the same operator, network and allowance, else the platform's list price.
 */
export interface Price {
  standardCode: string;
  standardName: string;
  unitPrice: number;
  years: number[];
}

interface StandardRow {
  code: string;
  name: string;
  unit_price: string;
  years: number[];
  tenant_code: string | null;
}

/** Prices of the given packages for a tenant, by package code. */
export async function pricesFor(db: Queryable, tenantCode: string, packageCodes: readonly string[]): Promise<Map<string, Price>> {
  const rows = await db.query<StandardRow & { package_code: string }>(
    `SELECT DISTINCT ON (p.code) p.code AS package_code, s.code, s.name, s.unit_price, s.years, s.tenant_code
       FROM card_charge_standard p
       JOIN card_charge_standard s ON s.operator = p.operator AND s.network = p.network AND s.flow_mb = p.flow_mb
        AND (s.tenant_code = $1 OR s.tenant_code IS NULL) AND (s.enabled OR s.code = p.code)
      WHERE p.code = ANY($2::text[])
      ORDER BY p.code, (s.tenant_code IS NOT NULL AND s.enabled) DESC, s.enabled DESC, (s.code = p.code) DESC, s.code`,
    [tenantCode, [...new Set(packageCodes)]],
  );
  // Preference: the tenant's own enabled standard, then the list price.
  const prices = new Map<string, Price>();
  for (const row of rows) prices.set(row.package_code, { standardCode: row.code, standardName: row.name, unitPrice: Number(row.unit_price), years: row.years.map(Number) });
  return prices;
}

export interface CardCharge {
  iccid: string;
  packageCode: string;
  unitPrice: number;
  amount: number;
}

export interface Calculation {
  cardCount: number;
  years: number;
  amount: number;
  lines: Array<{ packageCode: string; packageName: string; unitPrice: number; cardCount: number; amount: number }>;
  cards: CardCharge[];
}

/** The price of `years` of service for each card (of one tenant); "400" when a package is not sold for that term. */
export async function calculate(db: Queryable, tenantCode: string, cards: ReadonlyArray<{ iccid: string; packageCode: string }>, years: number): Promise<Calculation> {
  const prices = await pricesFor(db, tenantCode, cards.map((card) => card.packageCode));
  const charges: CardCharge[] = [];
  const lines = new Map<string, Calculation['lines'][number]>();
  for (const card of cards) {
    const price = prices.get(card.packageCode);
    if (!price) throw fail.conflict(`卡片 ${card.iccid} 的资费套餐没有资费标准`);
    if (!price.years.includes(years)) throw fail.badRequest(`参数错误：years（${price.standardName} 可选年限为 ${price.years.join('、')} 年）`);
    const amount = yuan(fenOf(price.unitPrice) * years);
    charges.push({ iccid: card.iccid, packageCode: card.packageCode, unitPrice: price.unitPrice, amount });
    const line = lines.get(price.standardCode) ?? { packageCode: price.standardCode, packageName: price.standardName, unitPrice: price.unitPrice, cardCount: 0, amount: 0 };
    line.cardCount += 1;
    line.amount = yuan(fenOf(line.amount) + fenOf(amount));
    lines.set(price.standardCode, line);
  }
  return {
    cardCount: charges.length,
    years,
    amount: yuan(charges.reduce((sum, charge) => sum + fenOf(charge.amount), 0)),
    lines: [...lines.values()],
    cards: charges,
  };
}
