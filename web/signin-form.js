// @ts-check
/**
 * The sign-in form the search page shows instead of results when the search answers 401: the
 * index holds pages that are not public. It posts the search token to /api/signin (which sets
 * the session cookie) and runs the search again.
 */
import { h } from './lib/dom.js';
import { clearResults, showMessage } from './search/messages.js';

/**
 * @param {unknown} body the 401 answer
 * @param {() => void} onSignedIn
 */
export function showSignIn(body, onSignedIn) {
  clearResults();
  const status = document.getElementById('status');
  if (status) status.textContent = 'Sign in to search.';
  const reason = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : '';
  const input = h('input', { id: 'signin-token', name: 'token', type: 'password', autocomplete: 'current-password', required: true });
  const problem = h('p', { class: 'error-detail', role: 'alert', hidden: true });
  const button = h('button', { type: 'submit', class: 'search-button' }, 'Sign in');
  /** @param {SubmitEvent} event */
  const submit = async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.hidden = true;
    try {
      const response = await fetch('/api/signin', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ token: input.value }) });
      if (response.ok) return onSignedIn();
      const answer = await response.json().catch(() => null);
      problem.textContent = answer && typeof answer.message === 'string' ? answer.message : `Sign-in failed (${response.status}).`;
    } catch {
      problem.textContent = 'The server could not be reached. Try again in a moment.';
    } finally {
      button.disabled = false;
    }
    problem.hidden = false;
    input.focus();
  };
  const form = h('form', { class: 'signin-form', method: 'post', action: '/api/signin', onsubmit: submit }, h('label', { for: 'signin-token' }, 'Search token'), ' ', input, ' ', button, problem);
  showMessage('info', [h('h2', {}, 'Sign in to search'), h('p', {}, reason || 'Some pages of this site are not public.'), h('p', {}, 'Enter the search token you were given.'), form]);
  input.focus();
}
