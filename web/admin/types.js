// @ts-check
/**
 * Shapes of the admin API's answers, as the panels read them.
 *
 * @typedef {{ iteration: number, crawled: number, change: number, l1ToTruth?: number, ms?: number }} RoundStep
 * @typedef {{ id: string, state: string, selector?: string, iteration?: number, iterations?: number,
 *   crawled?: number, frontier?: number, change?: number, l1ToTruth?: number, history?: RoundStep[],
 *   startedAt?: number, finishedAt?: number, extraPages?: number, error?: string, version?: number }} Round
 * @typedef {{ id: string, kind: string, state: string, queuedAt: number, startedAt?: number, finishedAt?: number,
 *   error?: string, recrawl?: Record<string, number>, crawl?: { fetchedThisRun: number, stored: number, frontier: number, stoppedBecause: string },
 *   progress?: Record<string, unknown>,
 *   heldIndexChange?: { removing: number, indexed: number, appliedAt?: number, discardedAt?: number } }} Job
 * @typedef {{ name: string, cron: string, description?: string, timeZone?: string, editable?: boolean, nextRun?: number, lastFired?: number, lastJob?: string, skipped?: number }} Schedule
 */
export {};
