import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../platform/db.ts';
import type { Random } from './random.ts';

/** What a domain's demo seeder gets; the seeders are listed in demo/index.ts. */
export interface SeedContext {
  db: Db;
  tenantId: number;
  slug: string;
  random: Random;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** The data folder (files that go with the demo rows, e.g. analysis frames); absent when seeding without one. */
  dataDir?: string;
}

export type Seeder = { name: string; run(ctx: SeedContext): Promise<void> };
