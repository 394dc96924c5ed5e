// @ts-check
/** The table of past rounds; "Show" puts one in the live panel. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatDuration, formatInteger, formatNumber } from '../lib/format.js';
import { api } from './api.js';
import { isOver, stateBadge } from './common.js';
import { showRound } from './rounds.js';
import { drawRoundsHistory } from './rounds-history.js';

/** @typedef {import('./types.js').Round} Round */

export async function loadRounds() {
  const { body } = await api('/rounds');
  renderRounds(body.rounds ?? []);
  drawRoundsHistory(body.history ?? []);
}

/** @param {Round[]} rounds */
function renderRounds(rounds) {
  byId('rounds-empty').hidden = rounds.length > 0;
  const scroll = byId('rounds-table').closest('.table-scroll');
  if (scroll instanceof HTMLElement) scroll.hidden = rounds.length === 0;
  const rows = rounds.map((round) => {
    const last = (round.history ?? []).at(-1);
    return h('tr', {},
      h('td', {}, h('span', { text: formatDateTime(round.startedAt) }), h('br'), h('code', { class: 'small muted', text: round.id })),
      h('td', { text: String(round.selector).toUpperCase() }),
      h('td', { class: 'num', text: `${formatInteger(round.iteration)} / ${formatInteger(round.iterations)}` }),
      h('td', { class: 'num', text: formatInteger(round.crawled) }),
      h('td', { class: 'num', text: last && last.iteration > 0 ? formatNumber(round.change) : '–' }),
      h('td', { class: 'num', text: formatNumber(round.l1ToTruth) }),
      h('td', { class: 'num', text: round.finishedAt && round.startedAt ? formatDuration(round.finishedAt - round.startedAt) : '–' }),
      h('td', {}, stateBadge(round.state), round.version ? h('span', { class: 'small muted', title: 'the rank version this round wrote', text: ` rank v${round.version}` }) : null),
      h('td', {}, h('button', {
        type: 'button',
        class: 'button button-quiet button-small',
        'aria-label': `Show round ${round.id} in the chart`,
        onclick: () => {
          showRound(round, { watch: !isOver(round.state) });
          // Keyboard users land where the round now shows, not back at the table.
          byId('round-title').focus();
        },
      }, 'Show')));
  });
  byIdAs('rounds-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
}
