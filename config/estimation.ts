/**
 * Defaults and validation of the global-PageRank estimation settings (docs/estimation.md).
 * The experiment command and estimation rounds read them; flags override them.
 */
import { z } from 'zod';
import { ESTIMATOR_NAMES, METHOD_NAMES } from '../indexer/estimation/estimators.ts';

export const estimationSettingsSchema = z.object({
  /** PageRank damping factor α. */
  alpha: z.number().gt(0).lt(1).default(0.85),
  /** PageRank L1 tolerance δ. */
  tolerance: z.number().positive().max(0.1).default(1e-6),
  /** FindGlobalPR iterations T. */
  iterations: z.number().int().min(1).max(10_000).default(50),
  /** Extra pages to crawl: a count (`1500`) or a multiple of the domain size (`2n`). */
  extra: z.string().regex(/^(\d+|(\d+(\.\d+)?|\.\d+)n)$/, 'a page count such as 1500 or a multiple such as 2n').default('2n'),
  /**
   * How rounds choose pages (docs/estimation.md): `default` runs the paper's SC-Select on a site scope (host,
   * prefix, regex) and `best` (the hedged adaptive selection + the gated consensus estimate) on a topic crawl;
   * or name one method: `sc`, its baselines `pf`, `outlink`, `random`, or `best`.
   */
  selector: z.enum(METHOD_NAMES).default('default'),
  /** The final estimate of a selector (`best` brings its own): the paper's `supergraph`, or `gated`. */
  estimator: z.enum(ESTIMATOR_NAMES).default('supergraph'),
  /** Seed of the Random selector. */
  seed: z.number().int().default(1),
  /**
   * Per-pay-level-domain budgets on the pages a round fetches (the crawler's `pldBudget*`
   * settings). Off, a round selects exactly what the offline algorithm selects on the same pages.
   */
  pldBudgets: z.boolean().default(true),
  /** A global page of the supergraph fetched longer ago than this (days) is stale: a round revisits it. */
  revisitAfterDays: z.number().min(0).default(7),
  /** Share of a round's page budget that may go to revisiting stale global pages (the rest finds new ones). */
  revisitShare: z.number().min(0).max(1).default(0.2),
});

export type EstimationSettings = z.infer<typeof estimationSettingsSchema>;

export const defaultEstimationSettings: EstimationSettings = estimationSettingsSchema.parse({});
