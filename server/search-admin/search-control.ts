/**
 * What the admin changes about results without rebuilding the index, kept in the data directory:
 * best bets and synonyms (`search-settings.json`, added to those of the settings file) and the
 * URLs removed from results (`removed-urls.json`, kept out until lifted). Every change is
 * written atomically, then applied to the search engine.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import { EMPTY_SEARCH_SETTINGS, mergeSearchSettings, parseSearchSettings, type SearchSettings } from '../../indexer/ranking/search-settings.ts';
import { writeFileAtomic } from '../../indexer/text-index/atomic-file.ts';

export interface RemovedUrl {
  url: string;
  removedAt: number;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${path} cannot be read: ${(error as Error).message}`);
  }
}

export class SearchControl {
  private stored: SearchSettings = EMPTY_SEARCH_SETTINGS;
  private removed: RemovedUrl[] = [];

  private constructor(
    private readonly dataDir: string,
    readonly fromFile: SearchSettings,
    private readonly engine: SearchEngine,
  ) {}

  /** Reads the stored settings and removals and applies them to the engine. */
  static async open(dataDir: string, fromFile: SearchSettings, engine: SearchEngine): Promise<SearchControl> {
    const control = new SearchControl(dataDir, parseSearchSettings(fromFile), engine);
    const stored = await readJson(join(dataDir, 'search-settings.json'));
    if (stored !== undefined) control.stored = parseSearchSettings(stored);
    const removed = await readJson(join(dataDir, 'removed-urls.json'));
    if (Array.isArray(removed)) control.removed = removed.filter((r): r is RemovedUrl => typeof r?.url === 'string' && typeof r?.removedAt === 'number');
    control.apply();
    return control;
  }

  get storedSettings(): SearchSettings {
    return this.stored;
  }

  get effectiveSettings(): SearchSettings {
    return mergeSearchSettings(this.fromFile, this.stored);
  }

  get removedUrls(): readonly RemovedUrl[] {
    return this.removed;
  }

  isRemoved(url: string): boolean {
    return this.removed.some((r) => r.url === url);
  }

  /** Replaces the admin's best bets and synonyms (throws with a reason on a malformed value). */
  async setStoredSettings(value: unknown): Promise<SearchSettings> {
    const parsed = parseSearchSettings(value);
    await writeFileAtomic(join(this.dataDir, 'search-settings.json'), `${JSON.stringify(parsed, null, 2)}\n`);
    this.stored = parsed;
    this.apply();
    return parsed;
  }

  async remove(url: string): Promise<void> {
    if (this.isRemoved(url)) return;
    await this.saveRemoved([...this.removed, { url, removedAt: Date.now() }]);
  }

  /** Lifts a removal; false when the URL was not removed. */
  async lift(url: string): Promise<boolean> {
    if (!this.isRemoved(url)) return false;
    await this.saveRemoved(this.removed.filter((r) => r.url !== url));
    return true;
  }

  private apply(): void {
    this.engine.setSearchSettings(this.effectiveSettings);
    this.engine.setRemoved(this.removed.map((r) => r.url));
  }

  private async saveRemoved(removed: RemovedUrl[]): Promise<void> {
    await writeFileAtomic(join(this.dataDir, 'removed-urls.json'), `${JSON.stringify(removed, null, 2)}\n`);
    this.removed = removed;
    this.apply();
  }
}
