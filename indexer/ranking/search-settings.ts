/**
 * Best bets and synonyms, applied at query time (no index rebuild). A best bet pins URLs to a
 * query: `library hours` matches that query exactly (after normalising case and spaces),
 * `library*` every query that starts with `library`. A synonym set (`car, automobile`) makes a
 * plain word of the query find pages with any word of its set; entries of several words work both
 * ways (`ets, erlang term storage`).
 */

export interface BestBet {
  pattern: string;
  urls: string[];
}

export interface SearchSettings {
  synonyms: string[][];
  bestBets: BestBet[];
}

export const EMPTY_SEARCH_SETTINGS: SearchSettings = { synonyms: [], bestBets: [] };

/** At most this many spellings of a query are run (two synonyms of three words each give 27). */
export const MAX_QUERY_VARIANTS = 8;

/** Lower case, one space between words, no surrounding space. */
export function normaliseQuery(query: string): string {
  return query.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function bestBetMatches(pattern: string, query: string): boolean {
  const p = normaliseQuery(pattern);
  const q = normaliseQuery(query);
  if (p.endsWith('*')) return p.length > 1 && q.startsWith(p.slice(0, -1));
  return p === q;
}

/** The pinned URLs for a query, in the order the settings list them, each once. */
export function bestBetUrls(settings: SearchSettings, query: string): string[] {
  const urls = new Set<string>();
  for (const bet of settings.bestBets) if (bestBetMatches(bet.pattern, query)) for (const url of bet.urls) urls.add(url);
  return [...urls];
}

/**
 * The spellings of a query with each plain word, or run of plain words, that belongs to a synonym
 * set replaced by the other entries of its set; the query itself first. Entries may be several
 * words, in both directions: with the set `ets, erlang term storage`, `ets` is also searched as
 * the phrase "erlang term storage", and the words `erlang term storage` also as `ets` (the longest
 * run that is an entry wins). Quoted phrases, operators (+ - field: ^ ~ *) are left as written.
 */
export function synonymVariants(query: string, synonyms: readonly string[][], limit = MAX_QUERY_VARIANTS): string[] {
  if (synonyms.length === 0) return [query];
  const setOf = new Map<string, string[]>();
  let longestEntry = 1;
  for (const set of synonyms) {
    const entries = [...new Set(set.map((entry) => normaliseQuery(entry)).filter((entry) => entry !== ''))];
    for (const entry of entries) {
      setOf.set(entry, [...new Set([...(setOf.get(entry) ?? []), ...entries])]);
      longestEntry = Math.max(longestEntry, entry.split(' ').length);
    }
  }
  // Tokens: quoted phrases kept whole, the rest split on spaces.
  const tokens = query.match(/"[^"]*"?|\S+/g) ?? [];
  const plain = (token: string) => /^[\p{L}\p{N}][\p{L}\p{N}'’-]*$/u.test(token);
  let variants: string[][] = [[]];
  for (let i = 0; i < tokens.length; ) {
    let span = 1;
    let choices = [tokens[i]];
    for (let length = Math.min(longestEntry, tokens.length - i); length >= 1; length--) {
      const run = tokens.slice(i, i + length);
      if (!run.every(plain)) continue;
      const entry = normaliseQuery(run.join(' '));
      const set = setOf.get(entry);
      if (set === undefined) continue;
      span = length;
      // The words as typed first, then the other entries (several words: a phrase).
      choices = [run.join(' '), ...set.filter((other) => other !== entry).map((other) => (other.includes(' ') ? `"${other}"` : other))];
      break;
    }
    const next: string[][] = [];
    for (const variant of variants) for (const choice of choices) if (next.length < limit) next.push([...variant, choice]);
    variants = next;
    i += span;
  }
  return [...new Set(variants.map((words) => words.join(' ')))];
}

/** Checks and cleans settings read from a file or an API body; throws with a reason. */
export function parseSearchSettings(value: unknown): SearchSettings {
  if (value === null || typeof value !== 'object') throw new Error('search settings must be an object with synonyms and bestBets');
  const { synonyms = [], bestBets = [] } = value as { synonyms?: unknown; bestBets?: unknown };
  if (!Array.isArray(synonyms) || synonyms.length > 10_000) throw new Error('synonyms must be a list of at most 10,000 sets');
  if (!Array.isArray(bestBets) || bestBets.length > 10_000) throw new Error('bestBets must be a list of at most 10,000 entries');
  const cleanSynonyms = synonyms.map((set, i) => {
    if (!Array.isArray(set) || set.length < 2 || set.length > 50 || !set.every((word) => typeof word === 'string' && word.trim() !== '' && word.length <= 100)) {
      throw new Error(`synonyms[${i}] must list 2 to 50 words of at most 100 characters`);
    }
    return set.map((word: string) => word.trim());
  });
  const cleanBets = bestBets.map((bet, i) => {
    const { pattern, urls } = (bet ?? {}) as { pattern?: unknown; urls?: unknown };
    if (typeof pattern !== 'string' || normaliseQuery(pattern) === '' || pattern.length > 200) throw new Error(`bestBets[${i}].pattern must be a query of 1 to 200 characters`);
    if (!Array.isArray(urls) || urls.length === 0 || urls.length > 20) throw new Error(`bestBets[${i}].urls must list 1 to 20 URLs`);
    for (const url of urls) {
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new Error(`bestBets[${i}].urls has '${String(url).slice(0, 100)}', not an http(s) URL`);
    }
    return { pattern: pattern.trim(), urls: urls as string[] };
  });
  return { synonyms: cleanSynonyms, bestBets: cleanBets };
}

/** The settings file's entries and the admin's (stored in the data directory), together. */
export function mergeSearchSettings(fromFile: SearchSettings, stored: SearchSettings): SearchSettings {
  return { synonyms: [...stored.synonyms, ...fromFile.synonyms], bestBets: [...stored.bestBets, ...fromFile.bestBets] };
}
