/**
 * A server manual shaped like Apache HTTP Server's, generated (no real manual's text): module
 * pages define their directives as
 * `<h2><a name="ProxyPass" id="ProxyPass">ProxyPass</a> <a name="proxypass" id="proxypass">Directive</a></h2>`,
 * a directive index and a quick reference link every directive, guides mention directives many
 * times in their prose and examples, and the manual is in several language folders: the English
 * page is copied byte for byte into folders that have no translation, and the translations
 * (French here) name each other only through a language bar in the body.
 */
import { seededRandom } from '../../indexer/seeded-random.ts';

export const MANUAL_LANGUAGES = ['en', 'de', 'fr', 'ja', 'ko', 'tr'] as const;
/** Folders whose module pages are translated; the others hold copies of the English page. */
const TRANSLATED = new Set(['fr']);

interface Module {
  name: string;
  summary: string;
  /** `shown`: the heading's text when it is not the name (`<If>` for the section directive If). */
  directives: Array<{ name: string; description: string; shown?: string }>;
}

const MODULES: Module[] = [
  {
    name: 'mod_proxy',
    summary: 'Multi-protocol proxy and gateway server',
    directives: [
      { name: 'ProxyPass', description: 'Maps remote servers into the local server URL-space' },
      { name: 'ProxyPassReverse', description: 'Adjusts the URL in HTTP response headers sent from a reverse proxied server' },
      { name: 'ProxyPassMatch', description: 'Maps remote servers into the local server URL-space using regular expressions' },
      { name: 'ProxyRequests', description: 'Enables forward proxy requests' },
      { name: 'ProxyPreserveHost', description: 'Use incoming Host HTTP request header for proxy request' },
      { name: 'ProxyTimeout', description: 'Network timeout for proxied requests' },
      { name: 'BalancerMember', description: 'Add a member to a load balancing group' },
      { name: 'NoProxy', description: 'Hosts, domains, or networks that will be connected to directly' },
    ],
  },
  {
    name: 'mod_rewrite',
    summary: 'Provides a rule-based rewriting engine to rewrite requested URLs on the fly',
    directives: [
      { name: 'RewriteRule', description: 'Defines rules for the rewriting engine' },
      { name: 'RewriteCond', description: 'Defines a condition under which rewriting will take place' },
      { name: 'RewriteEngine', description: 'Enables or disables runtime rewriting engine' },
      { name: 'RewriteMap', description: 'Defines a mapping function for key-lookup' },
      { name: 'RewriteBase', description: 'Sets the base URL for per-directory rewrites' },
    ],
  },
  {
    name: 'mod_alias',
    summary: 'Provides for mapping different parts of the host filesystem in the document tree and for URL redirection',
    directives: [
      { name: 'Alias', description: 'Maps URLs to filesystem locations' },
      { name: 'Redirect', description: 'Sends an external redirect asking the client to fetch a different URL' },
      { name: 'ScriptAlias', description: 'Maps a URL to a filesystem location and designates the target as a CGI script' },
    ],
  },
  {
    name: 'core',
    summary: 'Core Apache-style HTTP Server features that are always available',
    directives: [
      { name: 'DocumentRoot', description: 'Directory that forms the main document tree visible from the web' },
      { name: 'ServerName', description: 'Hostname and port that the server uses to identify itself' },
      { name: 'Include', description: 'Includes other configuration files from within the server configuration files' },
      { name: 'Options', description: 'Configures what features are available in a particular directory' },
      { name: 'If', shown: '&lt;If&gt;', description: 'Contains directives that apply only if a condition is satisfied by a request at runtime' },
    ],
  },
];

/** Guides: prose that mentions directives of several modules, often. */
const GUIDES: Array<{ key: string; title: string; mentions: string[] }> = [
  { key: 'howto/reverse_proxy', title: 'Reverse Proxy Guide', mentions: ['ProxyPass', 'ProxyPassReverse', 'BalancerMember', 'ProxyPreserveHost', 'ProxyPassMatch'] },
  { key: 'rewrite/proxy', title: 'Using mod_rewrite for Proxying', mentions: ['RewriteRule', 'ProxyPass', 'RewriteCond', 'ProxyPassReverse'] },
  { key: 'rewrite/avoid', title: 'When not to use mod_rewrite', mentions: ['RewriteRule', 'Redirect', 'Alias', 'ProxyPass', 'ScriptAlias'] },
  { key: 'urlmapping', title: 'Mapping URLs to Filesystem Locations', mentions: ['DocumentRoot', 'Alias', 'ScriptAlias', 'ProxyPass', 'ProxyPassReverse', 'Redirect', 'RewriteRule'] },
  { key: 'vhosts/name-based', title: 'Name-based Virtual Host Support', mentions: ['ServerName', 'DocumentRoot', 'Include'] },
];

const WORDS = ('server request client response header configuration directory file host address port module context '
  + 'virtual path location backend worker connection timeout example section value default argument rule pattern '
  + 'syntax status override access handler filter log error environment variable scope order match string').split(' ');
const FRENCH = ('serveur requête client réponse en-tête configuration répertoire fichier hôte adresse port module contexte '
  + 'virtuel chemin emplacement dorsal processus connexion délai exemple section valeur défaut argument règle modèle '
  + 'syntaxe statut surcharge accès gestionnaire filtre journal erreur environnement variable portée ordre correspondance chaîne').split(' ');

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function prose(random: () => number, words: readonly string[], sentences: number, mentions: readonly string[] = []): string {
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const length = 8 + Math.floor(random() * 10);
    const sentence = Array.from({ length }, () => words[Math.floor(random() * words.length)]);
    if (mentions.length > 0) sentence.splice(Math.floor(random() * length), 0, mentions[s % mentions.length]);
    out.push(sentence.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.');
  }
  return out.join(' ');
}

function languageBar(key: string, available: readonly string[]): string {
  const up = '../'.repeat(key.split('/').length);
  return `<div class="toplang"><p><span>Available Languages: </span>${available.map((lang) => `<a href="${up}${lang}/${key}.html" hreflang="${lang}" rel="alternate" title="${lang}">&nbsp;${lang}&nbsp;</a>`).join(' |\n')}</p></div>`;
}

function page(lang: string, key: string, title: string, body: string): string {
  const up = '../'.repeat(key.split('/').length - 1);
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="${lang}" xml:lang="${lang}"><head><meta charset="utf-8"/><title>${escapeHtml(title)} - Apache-style HTTP Server Version 2.4</title></head>
<body><div id="page-header"><p class="menu"><a href="${up}mod/index.html">Modules</a> | <a href="${up}mod/directives.html">Directives</a> | <a href="${up}mod/quickreference.html">Quick Reference</a></p>
<p class="apache">Apache-style HTTP Server Version 2.4</p></div>
<div id="path"><a href="${up}index.html">Version 2.4</a> &gt; <a href="${up}mod/index.html">Modules</a></div>
<div id="page-content">${body}</div>
<div id="footer"><p class="apache">Copyright 2026 The Manual Authors.</p><p class="menu"><a href="${up}mod/index.html">Modules</a> | <a href="${up}mod/directives.html">Directives</a></p></div>
</body></html>`;
}

function modulePage(module: Module, lang: string, random: () => number): string {
  const french = lang === 'fr';
  const words = french ? FRENCH : WORDS;
  const key = `mod/${module.name}`;
  const sections = module.directives.map((directive) => `<div class="directive-section"><h2><a name="${directive.name}" id="${directive.name}">${directive.shown ?? directive.name}</a> <a name="${directive.name.toLowerCase()}" id="${directive.name.toLowerCase()}">${french ? 'Directive' : 'Directive'}</a></h2>
<table class="directive"><tr><th>Description:</th><td>${french ? prose(random, words, 1) : directive.description}</td></tr><tr><th>Syntax:</th><td><code>${directive.name} [${french ? 'chemin' : 'path'}] url</code></td></tr><tr><th>Module:</th><td>${module.name}</td></tr></table>
<p>${prose(random, words, 12, [directive.name])}</p><pre class="prettyprint">${directive.name} "/app" "http://backend.example.com/app"</pre><p>${prose(random, words, 8)}</p></div>`);
  const toc = module.directives.map((directive) => `<li><img alt="" src="../images/down.gif" /> <a href="#${directive.name.toLowerCase()}">${directive.name}</a></li>`).join('');
  return page(lang, key, `${module.name} - ${french ? 'Serveur HTTP' : module.summary}`, `<div id="preamble"><h1>${french ? 'Module Apache' : 'Apache Module'} ${module.name}</h1>
${languageBar(key, MANUAL_LANGUAGES)}
<table class="module"><tr><th>Description:</th><td>${french ? prose(random, words, 1) : module.summary}</td></tr><tr><th>Status:</th><td>Extension</td></tr></table>
<h3>Summary</h3><p>${prose(random, words, 20)}</p></div>
<div id="quickview"><h3 class="directives">Directives</h3><ul id="toc">${toc}</ul></div>
${sections.join('\n')}
${languageBar(key, MANUAL_LANGUAGES)}`);
}

function directiveIndex(lang: string): string {
  const items = MODULES.flatMap((module) => module.directives.map((d) => ({ ...d, module: module.name })))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((d) => `<li><a href="${d.module}.html#${d.name.toLowerCase()}">${d.name}</a></li>`);
  return page(lang, 'mod/directives', 'Directive Index', `<div id="preamble"><h1>Directive Index</h1>${languageBar('mod/directives', MANUAL_LANGUAGES)}
<p>All of the directives available in the standard distribution are listed here.</p></div><div id="directive-list"><ul>${items.join('\n')}</ul></div>`);
}

function quickReference(lang: string): string {
  const rows = MODULES.flatMap((module) => module.directives.map((d) => `<tr><td><a href="${module.name}.html#${d.name.toLowerCase()}">${d.name}</a> url</td><td>svdh</td><td>${module.name}</td></tr><tr><td colspan="3">${d.description}</td></tr>`));
  return page(lang, 'mod/quickreference', 'Directive Quick Reference', `<div id="preamble"><h1>Directive Quick Reference</h1>${languageBar('mod/quickreference', MANUAL_LANGUAGES)}
<p>The directive quick reference shows the usage, default, status, and context of each directive.</p></div><table class="qref">${rows.join('\n')}</table>`);
}

function moduleIndex(lang: string): string {
  const items = MODULES.map((module) => `<dt><a href="${module.name}.html">${module.name}</a></dt><dd>${module.summary}</dd>`);
  return page(lang, 'mod/index', 'Module Index', `<div id="preamble"><h1>Module Index</h1>${languageBar('mod/index', MANUAL_LANGUAGES)}</div><dl>${items.join('\n')}</dl>`);
}

function guidePage(guide: (typeof GUIDES)[number], lang: string, random: () => number): string {
  const mentions = guide.mentions;
  const examples = mentions.map((name) => `<pre class="prettyprint">${name} "/images/" "http://images.example.com/"\n${name} "/" "balancer://mycluster/"</pre>`).join('\n');
  const links = mentions.map((name) => {
    const module = MODULES.find((m) => m.directives.some((d) => d.name === name))!;
    return `<a href="${'../'.repeat(guide.key.split('/').length - 1)}mod/${module.name}.html#${name.toLowerCase()}">${name}</a>`;
  });
  return page(lang, guide.key, guide.title, `<div id="preamble"><h1>${guide.title}</h1>${languageBar(guide.key, MANUAL_LANGUAGES)}<p>${prose(random, WORDS, 10, mentions)}</p></div>
<h2><a name="simple" id="simple">Simple ${mentions[0]}</a></h2><p>${prose(random, WORDS, 15, mentions)} See ${links.join(', ')}.</p>${examples}
<h2><a name="more" id="more">More on ${mentions[1] ?? mentions[0]}</a></h2><p>${prose(random, WORDS, 15, mentions)}</p>${examples}`);
}

/** Every page of the manual by path (`/en/mod/mod_proxy.html`), with the root and folder indexes. */
export function directiveManualSite(seed = 7): Map<string, { html: string }> {
  const random = seededRandom(seed);
  const pages = new Map<string, { html: string }>();
  const english = new Map<string, string>();
  for (const module of MODULES) english.set(`mod/${module.name}`, modulePage(module, 'en', random));
  english.set('mod/directives', directiveIndex('en'));
  english.set('mod/quickreference', quickReference('en'));
  english.set('mod/index', moduleIndex('en'));
  for (const guide of GUIDES) english.set(guide.key, guidePage(guide, 'en', random));
  english.set('index', page('en', 'index', 'Documentation', `<h1>Documentation</h1>${languageBar('index', MANUAL_LANGUAGES)}<ul>${[...english.keys()].map((key) => `<li><a href="${key}.html">${key}</a></li>`).join('')}</ul>`));
  for (const lang of MANUAL_LANGUAGES) {
    for (const [key, html] of english) {
      const translated = lang !== 'en' && TRANSLATED.has(lang) && key.startsWith('mod/mod_');
      const module = MODULES.find((m) => `mod/${m.name}` === key);
      pages.set(`/${lang}/${key}.html`, { html: translated && module ? modulePage(module, lang, random) : html });
    }
  }
  pages.set('/index.html', { html: page('en', 'index', 'Manual', `<h1>Manual</h1><ul>${MANUAL_LANGUAGES.map((lang) => `<li><a href="/${lang}/index.html">${lang}</a></li>`).join('')}</ul>`) });
  return pages;
}
