// @ts-check
/**
 * The admin API client: the token (kept in this tab's sessionStorage only), calls with it, and the
 * page's way of reporting a failure. A 401 anywhere signs out (the entry module says how).
 */
import { byId } from '../lib/dom.js';

export const API = '/api/admin';
const TOKEN_KEY = 'lse-admin-token';

let token = sessionStorage.getItem(TOKEN_KEY) ?? '';
/** @type {(reason: string) => void} */
let signOutHandler = () => {};

export const currentToken = () => token;

/** @param {string} candidate */
export function useToken(candidate) {
  token = candidate;
}

export function keepToken() {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken() {
  token = '';
  sessionStorage.removeItem(TOKEN_KEY);
}

/** What to do when the server refuses the token. @param {(reason: string) => void} handler */
export function onUnauthorized(handler) {
  signOutHandler = handler;
}

/** The server refused the token (the page has signed out). */
export class Unauthorized extends Error {}

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Signs out, saying the server refused the token. */
export const tokenRefused = () => signOutHandler('Wrong token: the server refused it. Sign in again.');

/**
 * Calls the admin API with the token. A 409 is an answer (the caller says what it means), other
 * failures throw ApiError; a 401 signs out and throws Unauthorized.
 * @param {string} path
 * @param {{ method?: string, body?: unknown, signal?: AbortSignal }} [options]
 * @returns {Promise<{ status: number, body: any }>}
 */
export async function api(path, { method = 'GET', body, signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (response.status === 401) {
    tokenRefused();
    throw new Unauthorized('wrong token');
  }
  const payload = await response.json().catch(() => ({}));
  if (response.status === 429) throw new ApiError(429, 'Too many requests for now: the admin API allows 60 a minute. Try again shortly.');
  if (!response.ok && response.status !== 409) throw new ApiError(response.status, payload.message ?? `the server answered ${response.status}`);
  return { status: response.status, body: payload };
}

/**
 * Reports an API failure in a message element (a 401 has already signed out).
 * @param {HTMLElement} element
 * @param {unknown} error
 */
export function report(element, error) {
  if (error instanceof Unauthorized || (error instanceof Error && error.name === 'AbortError')) return;
  element.textContent = error instanceof Error ? error.message : String(error);
  element.hidden = false;
}

/** Reports a failure that concerns the whole page. @param {unknown} error */
export const reportOnPage = (error) => report(byId('dashboard-message'), error);

/** Clears a page-wide error once the server answers again. */
export function clearPageError() {
  const message = byId('dashboard-message');
  message.textContent = '';
  message.hidden = true;
}
