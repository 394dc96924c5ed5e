// @ts-check
/**
 * Suggestions as you type, as an ARIA 1.2 combobox: the search box (role=combobox) controls a
 * listbox of suggestions; ArrowDown/ArrowUp move through them (aria-activedescendant, focus stays
 * in the box), Enter takes the active one (a word fills the box and searches, a title opens its
 * page), Escape closes the list, a click takes one. A polite live region says how many there are.
 */
import { byId, h } from '../lib/dom.js';

/** @typedef {{ text: string, kind: 'term' | 'title', url?: string }} Suggestion */

const DEBOUNCE_MS = 90;

/**
 * @param {HTMLInputElement} input
 * @param {(text: string) => void} search  runs a search for a chosen word
 */
export function attachSuggestions(input, search) {
  const list = byId('suggestions');
  const announcer = byId('suggestions-status');
  /** @type {Suggestion[]} */
  let items = [];
  let active = -1;
  /** @type {AbortController | null} */
  let inFlight = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');

  function close() {
    items = [];
    active = -1;
    list.replaceChildren();
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  /** @param {number} index */
  function setActive(index) {
    active = index;
    for (const [i, option] of Array.from(list.children).entries()) option.setAttribute('aria-selected', String(i === index));
    if (index >= 0) input.setAttribute('aria-activedescendant', `suggestion-${index}`);
    else input.removeAttribute('aria-activedescendant');
  }

  /** @param {Suggestion[]} suggestions */
  function show(suggestions) {
    // A list that refreshes while the visitor is choosing keeps their choice where it still is.
    const chosen = active >= 0 ? items[active] : undefined;
    items = suggestions;
    active = -1;
    input.removeAttribute('aria-activedescendant');
    if (suggestions.length === 0) {
      close();
      announcer.textContent = '';
      return;
    }
    list.replaceChildren(...suggestions.map((suggestion, i) => h('li', {
      id: `suggestion-${i}`,
      role: 'option',
      class: `suggestion suggestion-${suggestion.kind}`,
      'aria-selected': 'false',
      // mousedown, not click: the box keeps the focus, and the choice lands before blur closes the list.
      onmousedown: (/** @type {MouseEvent} */ event) => {
        event.preventDefault();
        choose(i);
      },
    }, suggestion.kind === 'title' ? [h('span', { class: 'suggestion-kind' }, 'Page'), ' '] : null, suggestion.text)));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    if (chosen) setActive(suggestions.findIndex((suggestion) => suggestion.text === chosen.text && suggestion.kind === chosen.kind));
    announcer.textContent = `${suggestions.length} ${suggestions.length === 1 ? 'suggestion' : 'suggestions'}; use the arrow keys to choose.`;
  }

  /** @param {number} index */
  function choose(index) {
    const suggestion = items[index];
    if (!suggestion) return;
    close();
    if (suggestion.kind === 'title' && suggestion.url) {
      location.assign(suggestion.url);
      return;
    }
    input.value = suggestion.text;
    search(suggestion.text);
  }

  async function fetchSuggestions() {
    const typed = input.value;
    inFlight?.abort();
    if (typed.trim() === '' || typed.length > 200) {
      close();
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    try {
      const response = await fetch(`/api/suggest?${new URLSearchParams({ q: typed })}`, { signal: controller.signal });
      if (!response.ok) return close();
      const body = await response.json();
      // Only if the box still holds what was asked about and still has the focus.
      if (input.value === typed && document.activeElement === input) show(Array.isArray(body.suggestions) ? body.suggestions : []);
    } catch {
      // Aborted or offline: suggestions are a help, not the search; nothing to say.
    }
  }

  input.addEventListener('input', () => {
    // Typing after choosing is typing: Enter searches what the box holds.
    if (active >= 0) setActive(-1);
    clearTimeout(timer);
    timer = setTimeout(() => void fetchSuggestions(), DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (items.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : items.length - 1) : (active + step + items.length) % items.length);
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      close();
    }
  });

  input.addEventListener('blur', () => close());
  input.form?.addEventListener('submit', () => {
    clearTimeout(timer);
    inFlight?.abort();
    close();
  });
}
