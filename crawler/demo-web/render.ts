/**
 * HTML of demo pages, trap pages and status pages. Pure: the output depends only on the web, the
 * page and its content version, never on the clock or the request.
 */
import { seededRandom } from '../../indexer/seeded-random.ts';
import { encodeLegacy } from './files.ts';
import { mixSeed, type ContentVersion, type DemoPage, type DemoRawLink, type DemoTrapPage, type DemoWeb } from './generate.ts';
import { contentSource, demoLinkGroups, type DemoLinkGroups } from './links.ts';
import { heading, paragraph, pick, type Random, type TextVoice } from './text.ts';

const utf8 = new TextEncoder();

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function anchor(link: DemoRawLink): string {
  const rel = link.rel ? ` rel="${escapeHtml(link.rel)}"` : '';
  return `<a href="${escapeHtml(link.href)}"${rel}>${escapeHtml(link.text)}</a>`;
}

function list(className: string, links: readonly DemoRawLink[]): string {
  if (links.length === 0) return '';
  return `<ul class="${className}">\n${links.map((l) => `<li>${anchor(l)}</li>`).join('\n')}\n</ul>\n`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Content-Type header of a page (legacy charsets declared in the header or not at all). */
export function pageContentType(page: DemoPage): string {
  if (page.charset?.declaredIn === 'header') return `text/html; charset=${page.charset.name}`;
  if (page.charset?.declaredIn === 'meta') return 'text/html';
  return 'text/html; charset=utf-8';
}

/** The bytes of a page's HTML in its charset. */
export function encodePage(page: DemoPage, html: string): Uint8Array {
  return page.charset ? encodeLegacy(html, page.charset.name) : utf8.encode(html);
}

function voiceOf(web: DemoWeb, page: DemoPage): TextVoice {
  return { topic: page.topic >= 0 ? web.topics[page.topic] : undefined, academic: web.sites[page.site].kind === 'local' };
}

interface BodyParts {
  intro: string;
  main: string;
}

/** Generated prose: the first paragraph never changes, the rest change with the version. */
function prose(web: DemoWeb, page: DemoPage, version: number, paragraphs: number): BodyParts {
  const voice = voiceOf(web, page);
  const stable = seededRandom(mixSeed(page.textSeed, 0));
  const changing = seededRandom(mixSeed(page.textSeed, version + 1));
  const intro = `<p>${escapeHtml(paragraph(stable, voice))}</p>\n`;
  let main = '';
  for (let k = 0; k < paragraphs; k++) {
    if (k % 2 === 0) main += `<h2>${escapeHtml(heading(changing, voice))}</h2>\n`;
    main += `<p>${escapeHtml(paragraph(changing, voice))}</p>\n`;
  }
  return { intro, main };
}

function tags(web: DemoWeb, page: DemoPage, random: Random): string {
  const topic = page.topic >= 0 ? web.topics[page.topic] : undefined;
  if (!topic) return '';
  const words = new Set([topic.name, pick(random, topic.nouns).singular, pick(random, topic.nouns).singular]);
  return `<p class="tags">Tags: ${[...words].map(escapeHtml).join(', ')}</p>\n`;
}

function specialBody(web: DemoWeb, page: DemoPage, groups: DemoLinkGroups, version: number): string {
  switch (page.body) {
    case 'charset':
      return page.charset?.name === 'windows-1252'
        ? '<p>Our café serves crème brûlée, müesli, smørrebrød and Würstchen every day.</p>\n' +
            '<p>“Best coffee on campus” — the student paper. A set lunch costs €5 – €7; naïve prices, façade by the lake.</p>\n' +
            `<p>© 2026 Northfield University café.</p>\n${list('more', groups.extras)}`
        : '<p>Studieren in München: Über die Universität, Prüfungen, Mensa und Wohnheim.</p>\n' +
            '<p>Exchange students from Zürich, Köln and Genève are welcome; café à la française.</p>\n' +
            `<p>© 2026 Northfield University, Büro für Austausch.</p>\n${list('more', groups.extras)}`;
    case 'script-escaping':
      return (
        '<script>alert(1)</script>\n' +
        '<style>p.tip { color: #333; }</style>\n' +
        `<p class="tip">${escapeHtml('Type <script>alert(1)</script> into the search box and nothing bad happens.')}</p>\n` +
        `<p class="tip">${escapeHtml('Use "quotes" for phrases, & combine words; <b>tags</b> are shown as text, not markup.')}</p>\n` +
        `<p><abbr title="${escapeHtml('"quoted" & <tagged>')}" onclick="alert(2)">FAQ</abbr> answers more questions.</p>\n` +
        '<noscript><p>Scripts are off.</p></noscript>\n' +
        list('more', groups.extras)
      );
    case 'base-href':
      return `<p>This guide uses a base address, so the links below are relative to the help folder.</p>\n${list('more', groups.extras)}`;
    case 'link-zoo':
      return (
        `<p><a name="top"></a>Answers to common questions about the website.</p>\n` +
        '<!-- <a href="/hidden-in-comment.html">a link inside a comment is not a link</a> -->\n' +
        '<p><a>An anchor without an address</a></p>\n' +
        list('more', groups.extras)
      );
    case 'huge': {
      const random = seededRandom(mixSeed(page.textSeed, version + 1));
      const voice = { topic: undefined, academic: true };
      const parts: string[] = [list('more', groups.extras)];
      for (let k = 0; k < 8000; k++) parts.push(`<p>Course ${k + 1}. ${escapeHtml(paragraph(random, voice, 5))}</p>\n`);
      return parts.join('');
    }
    case 'search-results':
      return `<p>Search pages are not meant for crawlers; robots.txt disallows them.</p>\n${list('more', groups.extras)}`;
    default:
      return list('more', groups.extras);
  }
}

/** The HTML of a page at a content version (copies render exactly as their source). */
export function renderDemoPage(web: DemoWeb, page: DemoPage, version: ContentVersion): string {
  const source = contentSource(web, page);
  const site = web.sites[source.site];
  const groups = demoLinkGroups(web, page);
  const topic = source.topic >= 0 ? web.topics[source.topic] : undefined;
  const decoration = seededRandom(mixSeed(source.textSeed, 0xdec0));
  const title = source.role === 'home' ? site.name : `${source.title} | ${site.name}`;
  const description =
    source.role === 'home'
      ? site.kind === 'local'
        ? `${site.name}: teaching and research in ${web.topics.map((t) => t.name).join(', ')}.`
        : `${site.name}: ${topic?.tagline ?? 'news and articles'}.`
      : `${source.title}.${topic ? ` About ${topic.name}.` : ''}`;

  const head: string[] = ['<!DOCTYPE html>', '<html lang="en">', '<head>'];
  if (!source.charset) head.push('<meta charset="utf-8">');
  else if (source.charset.declaredIn === 'meta') head.push(`<meta charset="${source.charset.name}">`);
  head.push(`<title>${escapeHtml(title)}</title>`, `<meta name="description" content="${escapeHtml(description)}">`);
  if (source.robotsMeta) head.push(`<meta name="robots" content="${escapeHtml(source.robotsMeta)}">`);
  if (source.canonical) head.push(`<link rel="canonical" href="${escapeHtml(source.canonical)}">`);
  if (source.baseHref) head.push(`<base href="${escapeHtml(source.baseHref)}">`);
  head.push('</head>');

  let body = `<body>\n<header>\n<p class="site">${anchor(groups.nav[0])}</p>\n<nav>\n${list('nav', groups.nav.slice(1))}</nav>\n</header>\n<main>\n`;
  if (groups.breadcrumbs.length > 0) body += `<nav class="breadcrumbs">${groups.breadcrumbs.map(anchor).join(' › ')} › ${escapeHtml(source.title)}</nav>\n`;
  body += `<article>\n<h1>${escapeHtml(source.title)}</h1>\n<p class="dateline">Updated <time datetime="${isoDate(version.lastModifiedMs)}">${isoDate(version.lastModifiedMs)}</time></p>\n`;
  if (source.note) body += `<p class="note">${escapeHtml(source.note)}</p>\n`;

  if (source.body && source.body !== 'search-results') {
    body += specialBody(web, source, groups, version.version);
  } else if (source.role === 'home') {
    const { intro, main } = prose(web, source, version.version, 2);
    body += `<p class="lead">${escapeHtml(description)}</p>\n${intro}`;
    body += groups.related.length > 0 ? `<h2>Featured</h2>\n${list('featured', groups.related)}` : '';
    body += main;
    body += groups.elsewhere.length > 0 ? `<h2>Friends of ${escapeHtml(site.name)}</h2>\n${list('elsewhere', groups.elsewhere)}` : '';
    body += list('more', groups.extras);
  } else if (source.role === 'section') {
    const { intro, main } = prose(web, source, version.version, 1);
    body += `${intro}${list('articles', groups.listing)}${main}`;
    body += groups.related.length > 0 ? `<h2>Featured</h2>\n${list('featured', groups.related)}` : '';
    body += groups.elsewhere.length > 0 ? `<h2>Elsewhere</h2>\n${list('elsewhere', groups.elsewhere)}` : '';
    body += list('more', groups.extras);
  } else {
    const { intro, main } = prose(web, source, version.version, source.body === 'search-results' ? 1 : 3 + (source.textSeed % 3));
    body += intro;
    if (groups.related.length > 0) body += `<p class="see-also">See also: ${groups.related.map(anchor).join(', ')}.</p>\n`;
    body += main;
    if (groups.elsewhere.length > 0) body += `<h2>Further reading</h2>\n${list('elsewhere', groups.elsewhere)}`;
    if (source.body === 'search-results') body += specialBody(web, source, groups, version.version);
    else body += list('more', groups.extras);
    if (groups.sequence.length > 0) body += `<nav class="pager">${groups.sequence.map(anchor).join(' ')}</nav>\n`;
    body += tags(web, source, decoration);
  }
  body += `</article>\n</main>\n<footer><p>© 2026 ${escapeHtml(site.name)}. All rights reserved.</p></footer>\n</body>\n</html>\n`;
  return `${head.join('\n')}\n${body}`;
}

/** The HTML of a spider-trap page. */
export function renderTrapPage(trapPage: DemoTrapPage): string {
  return (
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(trapPage.title)}</title>\n</head>\n<body>\n` +
    `<h1>${escapeHtml(trapPage.title)}</h1>\n<p>Nothing is scheduled here yet.</p>\n` +
    `${list('pager', trapPage.links)}</body>\n</html>\n`
  );
}

/** A small HTML page for redirects and errors. */
export function renderStatusPage(status: number, message: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${status} ${escapeHtml(message)}</title>\n</head>\n<body>\n<h1>${status} ${escapeHtml(message)}</h1>\n</body>\n</html>\n`;
}
