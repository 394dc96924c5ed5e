/**
 * Each document's language in a segment, as a column: a number per document ordinal into the
 * segment's few languages. An array of a hundred thousand language strings per segment was the
 * last per-page array the server's heap held (a slot per page, marked at every full collection);
 * the numbers are the form the postings file already stores.
 */

export interface LanguageColumn {
  /** The segment's languages, each once. */
  readonly languages: readonly string[];
  /** Per document ordinal, its language's index in `languages`. */
  readonly codes: Uint16Array;
}

/** The language of the document at `ordinal`. */
export const languageAt = (column: LanguageColumn, ordinal: number): string => column.languages[column.codes[ordinal]];

/** The column of some documents' languages, in order (languages numbered as they first appear). */
export function languageColumn(langs: ArrayLike<string>): LanguageColumn {
  const number = new Map<string, number>();
  const codes = new Uint16Array(langs.length);
  for (let i = 0; i < langs.length; i++) {
    let code = number.get(langs[i]);
    if (code === undefined) number.set(langs[i], (code = number.size));
    codes[i] = code;
  }
  return { languages: [...number.keys()], codes };
}

/**
 * The column of documents taken from other columns: document `o` is `sourceOrdinal[o]` of column
 * `sourceOf[o]` (a merge's documents), without a string per document.
 */
export function gatheredLanguageColumn(columns: readonly LanguageColumn[], sourceOf: Int32Array, sourceOrdinal: Int32Array): LanguageColumn {
  const number = new Map<string, number>();
  const recode = columns.map((column) =>
    Uint16Array.from(column.languages, (lang) => {
      let code = number.get(lang);
      if (code === undefined) number.set(lang, (code = number.size));
      return code;
    }),
  );
  const codes = new Uint16Array(sourceOf.length);
  for (let o = 0; o < codes.length; o++) codes[o] = recode[sourceOf[o]][columns[sourceOf[o]].codes[sourceOrdinal[o]]];
  return { languages: [...number.keys()], codes };
}

/** Every document's language, in order (tests and comparisons). */
export const languagesOf = (column: LanguageColumn): string[] => Array.from(column.codes, (code) => column.languages[code]);
