// @ts-check
/** Language names for chips and "also in" links: the language's own name (Deutsch, 日本語). */

/** @param {string} code  a primary subtag, or `und` */
export function languageName(code) {
  if (code === 'und') return 'Other';
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name && name !== code ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}
