// @ts-check
/**
 * The DOM helpers both pages use. Strings given as children become text nodes, never HTML: page
 * titles, URLs and server messages are always text.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Child | Child[]} Children */
/**
 * Attribute values: `class` sets the class name, `text` the text content, `on…` adds a listener;
 * false, null and undefined leave the attribute out, true sets it empty.
 * @typedef {Record<string, string | number | boolean | null | undefined | ((event: any) => void)>} Attributes
 */

/**
 * @param {Element} element
 * @param {Children[]} children
 */
function appendChildren(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * An HTML element with attributes and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attributes]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') {
      if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    } else if (name === 'class') element.className = String(value);
    else if (name === 'text') element.textContent = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  appendChildren(element, children);
  return element;
}

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number | undefined | null>} [attributes]
 * @param {...Children} children
 * @returns {SVGElement}
 */
export function svg(tag, attributes = {}, ...children) {
  const element = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  appendChildren(element, children);
  return element;
}

/**
 * The element with this id; throws when the page lacks it (a page and its script out of step).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no element #${id}`);
  return element;
}

/**
 * The element with this id, checked to be of the expected class.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byIdAs(id, type) {
  const element = byId(id);
  if (!(element instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
  return element;
}
