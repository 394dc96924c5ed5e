// @ts-check
/**
 * Best bets and synonyms as two plain-text lists (one entry per line), saved with PUT
 * /api/admin/search-settings; the settings file's entries are shown as read-only facts.
 */
import { byId, byIdAs, h } from '../lib/dom.js';
import { api, report } from './api.js';

/** @typedef {{ synonyms: string[][], bestBets: Array<{ pattern: string, urls: string[] }> }} SearchSettings */

/** @param {SearchSettings} settings */
function toText(settings) {
  return {
    bets: settings.bestBets.map((bet) => `${bet.pattern} => ${bet.urls.join(' ')}`).join('\n'),
    synonyms: settings.synonyms.map((set) => set.join(', ')).join('\n'),
  };
}

/** Reads the two lists; throws naming the line that cannot be read. @returns {SearchSettings} */
function fromText() {
  const bestBets = byIdAs('best-bets', HTMLTextAreaElement).value.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line, i) => {
    const [pattern, urls = ''] = line.split('=>');
    if (!line.includes('=>') || pattern.trim() === '' || urls.trim() === '') throw new Error(`Best bets, line ${i + 1}: write "query => URL URL…".`);
    return { pattern: pattern.trim(), urls: urls.trim().split(/\s+/) };
  });
  const synonyms = byIdAs('synonyms', HTMLTextAreaElement).value.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line, i) => {
    const words = line.split(',').map((word) => word.trim()).filter((word) => word !== '');
    if (words.length < 2) throw new Error(`Synonyms, line ${i + 1}: at least two words separated by commas.`);
    return words;
  });
  return { synonyms, bestBets };
}

/**
 * Shows the best bets that point at no indexed page (a mistyped URL, a removed page, another
 * site): they would show nothing. Returns how many there are.
 */
async function showBetProblems() {
  /** @type {{ body: { problems: Array<{ pattern: string, url: string, message: string }> } }} */
  const { body } = await api('/best-bets/problems');
  const items = body.problems.map((p) => h('li', {}, h('code', { text: p.pattern }), ' → ', h('span', { class: 'bet-url', text: p.url }), `: ${p.message}.`));
  byId('bet-problems-list').replaceChildren(...items);
  byId('bet-problems').hidden = items.length === 0;
  return items.length;
}

export async function loadSearchSettings() {
  void showBetProblems().catch(() => {});
  const { body } = await api('/search-settings');
  const text = toText(body.stored);
  byIdAs('best-bets', HTMLTextAreaElement).value = text.bets;
  byIdAs('synonyms', HTMLTextAreaElement).value = text.synonyms;
  const file = body.fromSettingsFile;
  byId('search-settings-file').textContent = file.bestBets.length + file.synonyms.length > 0
    ? `The settings file adds ${file.bestBets.length} best bets and ${file.synonyms.length} synonym sets.`
    : '';
}

export function initSearchSettings() {
  byId('search-settings-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = byId('search-settings-error');
    const note = byId('search-settings-note');
    error.textContent = '';
    note.textContent = '';
    let settings;
    try {
      settings = fromText();
    } catch (invalid) {
      error.textContent = invalid instanceof Error ? invalid.message : String(invalid);
      return;
    }
    try {
      await api('/search-settings', { method: 'PUT', body: settings });
      const problems = await showBetProblems();
      note.textContent = `Saved: ${settings.bestBets.length} best bets, ${settings.synonyms.length} synonym sets, used from the next search on.` +
        (problems > 0 ? ` Warning: ${problems} best bet URL${problems === 1 ? '' : 's'} point${problems === 1 ? 's' : ''} at no indexed page (listed below).` : '');
    } catch (failure) {
      report(error, failure);
    }
  });
}
