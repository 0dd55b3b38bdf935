import type { Row } from '../db/bulk';
import { CUSTOMS, SEED_STANDARDS, type SeedCustom, type SeedStandard } from './fixtures/cards';
import type { Random } from './prng';

/** What the card generators (./cards.ts, ./cardOrderBook.ts, ./cardServices.ts) share. */

export const customOf = (code: string): SeedCustom => CUSTOMS.find((custom) => custom.code === code)!;
export const standardOf = (code: string): SeedStandard => SEED_STANDARDS.find((standard) => standard.code === code)!;

/** The yearly price a tenant pays for a package: its own negotiated standard, else the list price. */
export function priceFor(tenant: string, standardCode: string): number {
  const list = standardOf(standardCode);
  const own = SEED_STANDARDS.find((s) => s.tenant === tenant && s.operator === list.operator && s.network === list.network && s.flowMb === list.flowMb);
  return (own ?? list).unitPrice;
}

/** The tenant's administrator, who signs its documents. */
export const tenantAdmin = (tenant: string) => (tenant === 'T0001' ? 'tadmin' : 'badmin');

/** A card being built: its row plus what the seed needs to know about it. */
export interface SeedCard {
  row: Row;
  custom: SeedCustom;
  tenant: string | null;
  project: string | null;
  /** When the tenant put it to use (devices) or received it (extras). */
  since: number;
  fate: 'normal' | 'suspended' | 'deactivated' | 'replaced' | 'pending_confirm' | 'stock';
  device: Row | null;
}

/** What the card generators share: the generator, the clock and the cards built so far. */
export interface CardWorld {
  random: Random;
  now: number;
  timeZone: string;
  /** `offsetDays` from now, in milliseconds. */
  day(offsetDays: number): number;
  /** Every card, in the order their ids are given. */
  cards: SeedCard[];
  /** The 200 cards of the order awaiting T0001's confirmation. */
  awaiting: SeedCard[];
  /** The platform's stock. */
  stock: SeedCard[];
}

/** Stock cards of a specification not yet taken by a delivery or a replacement. */
export const stockFor = (world: CardWorld, customCode: string, count: number): SeedCard[] =>
  world.stock.filter((card) => card.custom.code === customCode && card.row.delivery_code === null && card.row.alter_code === null).slice(0, count);

