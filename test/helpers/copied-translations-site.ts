/**
 * A documentation site in 11 languages shaped like many real ones: every page has a folder per
 * language (`/de/reference/ch03-2.html`), translations name each other only through a language
 * bar in the body (`<a href="../../de/…" hreflang="de" rel="alternate">`, no `<link>` in the
 * head), and most pages are not translated: the English page is copied into the other folders,
 * byte for byte (it says `lang="en"`) or inside the folder's own template (it says the folder's
 * language around English text). The text is the Debian Reference and the Debian FAQ (Debian's
 * own translations), cut into parts; a small `vhosts` section, written for this fixture, has a
 * page whose translations also use the English term (as technical translations do).
 *
 * Deterministic (seeded). Served by {@link serveSite}; used by the languages tests and by
 * `npm run bench -- search-http/copied-translations`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseHtml } from '../../crawler/html.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { debianDocs, readDoc } from './debian-docs.ts';

export const SITE_LANGUAGES = ['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'zh'] as const;

export interface SitePageFile {
  path: string;
  /** The folder's language. */
  folder: string;
  /** The language its text is written in (`en` for an untranslated copy). */
  textLang: string;
  /** The page's key, the same in every folder (`reference/ch03-2`). */
  key: string;
  kind: 'original' | 'translation' | 'copy' | 'templated-copy';
  html: string;
}

export interface CopiedTranslationsSite {
  pages: Map<string, SitePageFile>;
  keys: string[];
  /** Pages whose text is their own (originals and translations); the rest are copies. */
  distinct: number;
}

export interface SiteOptions {
  /** Debian documents used (the first ones, by key); all by default. */
  documents?: number;
  /** Parts each document is cut into (one page each). */
  parts: number;
  /** Share of the existing Debian translations that the site has translated (the rest are copies). */
  translatedShare: number;
  /** Share of copies served in the folder's template (declaring its language) rather than byte for byte. */
  templatedShare: number;
  seed?: number;
}

const NAV: Record<string, { home: string; available: string; section: string }> = {
  de: { home: 'Startseite', available: 'Verfügbare Sprachen:', section: 'Dokumentation' },
  en: { home: 'Home', available: 'Available Languages:', section: 'Documentation' },
  es: { home: 'Inicio', available: 'Idiomas disponibles:', section: 'Documentación' },
  fr: { home: 'Accueil', available: 'Langues disponibles :', section: 'Documentation' },
  it: { home: 'Pagina iniziale', available: 'Lingue disponibili:', section: 'Documentazione' },
  ja: { home: 'ホーム', available: '利用可能な言語:', section: '文書' },
  ko: { home: '홈', available: '가능한 언어:', section: '문서' },
  nl: { home: 'Hoofdpagina', available: 'Beschikbare talen:', section: 'Documentatie' },
  pt: { home: 'Início', available: 'Línguas disponíveis:', section: 'Documentação' },
  ru: { home: 'Главная', available: 'Доступные языки:', section: 'Документация' },
  zh: { home: '首页', available: '可用语言：', section: '文档' },
};

/** The vhosts section's pages: title and text per language (written for this fixture). */
const VHOSTS: Record<string, Record<string, { title: string; text: string }>> = {
  index: {
    en: {
      title: 'Virtual host documentation',
      text:
        'A virtual host lets one server answer for several web sites, each with its own name and its own files. This documentation explains how virtual hosts are chosen for a request, ' +
        'either by the name the client asked for or by the address it connected to. Read the pages on name-based and address-based virtual hosts before you write the configuration, ' +
        'and keep one file per virtual host so that each site can be enabled or disabled on its own.',
    },
    fr: {
      title: 'Documentation des serveurs virtuels (virtual host)',
      text:
        "Un serveur virtuel (virtual host, en anglais) permet à un seul serveur de répondre pour plusieurs sites web, chacun avec son nom et ses fichiers. Cette documentation des virtual hosts " +
        "explique comment le serveur virtuel est choisi pour une requête, soit par le nom demandé par le client, soit par l'adresse à laquelle il s'est connecté. Gardez un fichier par virtual host.",
    },
    de: {
      title: 'Dokumentation zu virtuellen Hosts',
      text:
        'Ein virtueller Host (virtual host) erlaubt es einem Server, für mehrere Websites zu antworten, jede mit eigenem Namen und eigenen Dateien. Diese Dokumentation erklärt, wie der virtuelle Host ' +
        'für eine Anfrage gewählt wird: nach dem Namen, den der Client verlangt, oder nach der Adresse, mit der er verbunden ist. Legen Sie eine Datei pro virtuellem Host an.',
    },
    ja: {
      title: 'バーチャルホスト (virtual host) 説明書',
      text: 'バーチャルホストを使うと、一台のサーバで複数のウェブサイトを、それぞれの名前とファイルで運用できます。この説明書では、リクエストに対してどのバーチャルホストが選ばれるかを、クライアントが求めた名前や接続したアドレスから説明します。',
    },
  },
  'name-based': {
    en: {
      title: 'Name-based virtual hosts',
      text:
        'With name-based virtual hosts, many sites share one address, and the server picks the site from the host name the client sends with each request. ' +
        'This is the usual choice, since addresses are scarce; list every name a site answers to, and put a default site first to catch requests for unknown names.',
    },
    pt: {
      title: 'Virtual hosts baseados em nome',
      text:
        'Com virtual hosts baseados em nome, muitos sítios partilham um endereço, e o servidor escolhe o sítio pelo nome do host que o cliente envia em cada pedido. ' +
        'É a escolha habitual, pois os endereços são escassos; indique todos os nomes a que um sítio responde e coloque um sítio por omissão em primeiro lugar.',
    },
  },
  'address-based': {
    en: {
      title: 'Address-based virtual hosts',
      text:
        'Address-based virtual hosts give every site its own network address, so the server knows the site from the address a connection arrives on, before any name is read. ' +
        'Use them when a site needs its own address, for example for old clients that do not send a host name.',
    },
  },
};

/** Deterministic site; see the file comment. */
export function copiedTranslationsSite(options: SiteOptions): CopiedTranslationsSite {
  const random = seededRandom(options.seed ?? 11);
  const texts = debianTexts(options.documents);
  const pages = new Map<string, SitePageFile>();
  const keys: string[] = [];
  let distinct = 0;
  const add = (key: string, versions: Map<string, { title: string; text: string }>) => {
    keys.push(key);
    const english = versions.get('en')!;
    const englishHtml = pageHtml(key, 'en', english.title, english.text);
    for (const folder of SITE_LANGUAGES) {
      const path = pathOf(folder, key);
      const own = versions.get(folder);
      if (folder === 'en') pages.set(path, { path, folder, textLang: 'en', key, kind: 'original', html: englishHtml });
      else if (own && random() < options.translatedShare) pages.set(path, { path, folder, textLang: folder, key, kind: 'translation', html: pageHtml(key, folder, own.title, own.text) });
      else if (random() < options.templatedShare) pages.set(path, { path, folder, textLang: 'en', key, kind: 'templated-copy', html: pageHtml(key, folder, english.title, english.text) });
      else pages.set(path, { path, folder, textLang: 'en', key, kind: 'copy', html: englishHtml });
      if (pages.get(path)!.kind === 'original' || pages.get(path)!.kind === 'translation') distinct++;
    }
  };
  for (const [name, versions] of Object.entries(VHOSTS)) {
    keys.push(`vhosts/${name}`);
    const english = versions.en;
    const englishHtml = pageHtml(`vhosts/${name}`, 'en', english.title, english.text);
    for (const folder of SITE_LANGUAGES) {
      const path = pathOf(folder, `vhosts/${name}`);
      const own = folder === 'en' ? undefined : versions[folder];
      const kind = folder === 'en' ? 'original' : own ? 'translation' : 'copy';
      if (kind !== 'copy') distinct++;
      pages.set(path, { path, folder, textLang: own ? folder : 'en', key: `vhosts/${name}`, kind, html: own ? pageHtml(`vhosts/${name}`, folder, own.title, own.text) : englishHtml });
    }
  }
  for (const [docKey, versions] of texts) {
    const cut = new Map([...versions].map(([lang, doc]) => [lang, cutText(doc.text, options.parts)]));
    for (let part = 0; part < options.parts; part++) {
      const partVersions = new Map<string, { title: string; text: string }>();
      for (const [lang, doc] of versions) {
        const text = cut.get(lang)![part];
        if (text) partVersions.set(lang, { title: `${doc.title} (${part + 1})`, text });
      }
      if (partVersions.has('en')) add(`${docKey}-${part + 1}`, partVersions);
    }
  }
  for (const folder of SITE_LANGUAGES) {
    const path = `/${folder}/index.html`;
    pages.set(path, { path, folder, textLang: folder, key: 'index', kind: folder === 'en' ? 'original' : 'translation', html: folderIndexHtml(folder, keys, pages) });
  }
  return { pages, keys, distinct };
}

export function pathOf(folder: string, key: string): string {
  return `/${folder}/${key}.html`;
}

/** The Debian documents per key (`reference/ch03`), per language: title and main text. */
function debianTexts(limit: number | undefined): Map<string, Map<string, { title: string; text: string }>> {
  const byKey = new Map<string, Map<string, { title: string; text: string }>>();
  const sources = debianDocs().filter((doc) => (SITE_LANGUAGES as readonly string[]).includes(doc.lang));
  const keys = [...new Set(sources.map((doc) => doc.key.replace(/\.html$/, '')))].sort();
  const wanted = new Set(keys.slice(0, limit ?? keys.length));
  for (const source of sources) {
    const key = source.key.replace(/\.html$/, '');
    if (!wanted.has(key)) continue;
    const page = parseHtml(readDoc(source), `http://debian.test/${source.fileLang}/${source.key}`);
    let versions = byKey.get(key);
    if (!versions) byKey.set(key, (versions = new Map()));
    versions.set(source.lang, { title: page.title, text: page.content.text });
  }
  return byKey;
}

/** A text cut into `parts` pieces of about equal length, at sentence ends. */
function cutText(text: string, parts: number): string[] {
  const sentences = text.split(/(?<=[.!?。！？])\s*/u);
  const size = text.length / parts;
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    current += (current === '' ? '' : ' ') + sentence;
    if (current.length >= size && pieces.length < parts - 1) {
      pieces.push(current);
      current = '';
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The language bar: a link to every folder's version, relative (the same bytes work in any folder). */
function languageBar(key: string): string {
  const up = '../'.repeat(key.split('/').length);
  return SITE_LANGUAGES.map((lang) => `<a href="${up}${lang}/${key}.html" hreflang="${lang}" rel="alternate" title="${lang}">&nbsp;${lang}&nbsp;</a>`).join(' |\n');
}

function pageHtml(key: string, lang: string, title: string, text: string): string {
  const nav = NAV[lang];
  const up = '../'.repeat(key.split('/').length - 1);
  const paragraphs: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + 600);
    const space = text.indexOf(' ', end);
    if (space > 0 && space - end < 80) end = space;
    paragraphs.push(`<p>${escapeHtml(text.slice(at, end))}</p>`);
    at = end;
  }
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)} - Debian Documentation</title><link href="${up}../style/manual.css" rel="stylesheet" type="text/css"></head>
<body id="manual-page"><div id="page-header"><p class="menu"><a href="${up}index.html">${nav.home}</a></p><p class="site">Debian Documentation</p></div>
<div id="path"><a href="${up}index.html">${nav.section}</a> &gt; ${escapeHtml(key.split('/')[0])}</div>
<div id="page-content"><div id="preamble"><h1>${escapeHtml(title)}</h1>
<div class="toplang"><p><span>${nav.available}</span>
${languageBar(key)}</p></div>
${paragraphs.join('\n')}
</div>
<div class="bottomlang"><p><span>${nav.available}</span>
${languageBar(key)}</p></div></div>
<div id="footer"><p class="site">Debian Documentation, licensed as the Debian Reference and FAQ are.</p><p class="menu"><a href="${up}index.html">${nav.home}</a></p></div>
</body></html>`;
}

function folderIndexHtml(folder: string, keys: readonly string[], pages: ReadonlyMap<string, SitePageFile>): string {
  const nav = NAV[folder];
  const items = keys.map((key) => {
    const page = pages.get(pathOf(folder, key))!;
    const title = /<h1>([^<]*)<\/h1>/.exec(page.html)?.[1] ?? key;
    return `<li><a href="${key}.html">${title}</a></li>`;
  });
  const bar = SITE_LANGUAGES.map((lang) => `<a href="../${lang}/index.html" hreflang="${lang}" rel="alternate">${lang}</a>`).join(' | ');
  return `<!DOCTYPE html><html lang="${folder}"><head><meta charset="utf-8"><title>${nav.section}</title></head><body>
<div class="toplang"><p><span>${nav.available}</span> ${bar}</p></div><h1>${nav.section}</h1><ul>${items.join('\n')}</ul></body></html>`;
}

/** The site's root: links to every language folder, German first (a crawl meets copies before their originals). */
function rootHtml(): string {
  return `<!DOCTYPE html><html><head><title>Debian Documentation</title></head><body><h1>Debian Documentation</h1><ul>${SITE_LANGUAGES.map((lang) => `<li><a href="/${lang}/index.html">${lang}</a></li>`).join('')}</ul></body></html>`;
}

export interface ServedSite {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves the site on 127.0.0.1. `headers` adds response headers per path (a `Link` header);
 * `sitemap` is served at /sitemap.xml when given (else 404).
 */
export async function serveSite(pages: ReadonlyMap<string, { html: string }>, extra: { headers?: (path: string) => Record<string, string> | undefined; sitemap?: string } = {}): Promise<ServedSite> {
  const bodies = new Map([...pages].map(([path, page]) => [path, Buffer.from(page.html)]));
  bodies.set('/', Buffer.from(rootHtml()));
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/sitemap.xml' && extra.sitemap !== undefined) return response.writeHead(200, { 'content-type': 'application/xml' }).end(extra.sitemap);
    const body = bodies.get(path);
    if (body === undefined) return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...(extra.headers?.(path) ?? {}) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
