/**
 * What a user types, made readable for lunr's query parser without losing what code looks like:
 * - identifiers that lunr would cut or read as a field (`lists:keyfind`, `std::vector`,
 *   `gen_server:call/3`, `Date#parse`) and pasted URLs are set aside behind a placeholder, so
 *   `+ets:insert` keeps its operator and the words keep their order;
 * - `word:` is a field only when it names one (`title:`, `headings:`, `body:`, `url:`, in any
 *   case); any other `word:` is text (`note: ssh`).
 */
import { FIELD_NAMES } from './document.ts';

/** A placeholder term: a private-use character and the number of the word set aside. */
export const PLACEHOLDER = '\uE000';

export interface SetAside {
  kind: 'identifier' | 'url';
  /** As typed. */
  text: string;
}

/** An identifier with a joiner lunr reads as syntax or as a separator (`:`, `::`, `/`, `#`); `.` and `_` pass through lunr. */
const IDENTIFIER = /(?<=^|[\s(+\-])([\p{L}\p{N}\p{M}_]+(?:(?:\.|::|:|\/|#)[\p{L}\p{N}\p{M}_]+)+)(?=$|[\s),;*~^])/gu;
const URL = /(?<=^|[\s(+\-])((?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s"<>]+)/giu;
/** `word:` not followed by a term: a colon after a word (`note: ssh`, `todo:`). */
const DANGLING_COLON = /(?<=[\p{L}\p{N}\p{M}_]):(?=$|[^\p{L}\p{N}\p{M}_"\uE000])/gu;
const FIELD_PREFIX = /(?<=^|[\s+\-])([\p{L}]+):/gu;

/** A command-line option (`sphinx-build -D`, `makemigrations --check`): its letter or name is a word to find, not one to exclude. */
export const COMMAND_OPTION = /(?<=^|\s)(?:-([\p{L}\p{N}])(?=$|\s)|--([\p{L}\p{N}][\p{L}\p{N}_-]*))/gu;

/**
 * Replaces identifiers and URLs with placeholders; `word:` that names no field becomes a word,
 * and a command-line option its letter or name.
 */
export function setAsideCode(text: string): { text: string; words: SetAside[] } {
  const words: SetAside[] = [];
  const placeholder = (kind: SetAside['kind'], word: string) => {
    words.push({ kind, text: word });
    return `${PLACEHOLDER}${words.length - 1}`;
  };
  let result = text.replace(COMMAND_OPTION, (_option: string, letter: string | undefined, name: string | undefined) => letter ?? name ?? '');
  result = result.replace(URL, (url: string) => placeholder('url', url.replace(/[.,;:!?)]+$/, '')));
  result = result.replace(IDENTIFIER, (word: string) => {
    const colon = /^([\p{L}]+):(?!:)/u.exec(word);
    if (colon === null || !isField(colon[1])) return placeholder('identifier', word);
    // A field and its term: `title:comet`, `title:os.path` (lunr keeps `.` in a term), `title:ets:new`.
    const term = word.slice(colon[0].length);
    return /[:/#]/.test(term) ? `${colon[1].toLowerCase()}:${placeholder('identifier', term)}` : word;
  });
  result = result.replace(FIELD_PREFIX, (match: string, name: string) => (isField(name) ? `${name.toLowerCase()}:` : `${name} `));
  return { text: result.replace(DANGLING_COLON, ' '), words };
}

function isField(name: string): boolean {
  return (FIELD_NAMES as readonly string[]).includes(name.toLowerCase());
}

/** The set-aside word a placeholder term stands for, or null. */
export function setAsideWord(term: string, words: readonly SetAside[]): SetAside | null {
  if (!term.startsWith(PLACEHOLDER)) return null;
  return words[Number(term.slice(PLACEHOLDER.length).replace(/\*+$/, ''))] ?? null;
}
