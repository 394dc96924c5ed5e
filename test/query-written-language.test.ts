/**
 * The language a query is written in, told only when it is sure: the visitor's language when
 * neither `hl`, the referring page nor Accept-Language names one.
 */
import { describe, expect, it } from 'vitest';
import { writtenLanguage } from '../indexer/ranking/query-language.ts';

const SITE = new Set(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'zh']);
const known = (lang: string) => SITE.has(lang);

describe('the language a query is written in', () => {
  it('tells it from the text when the detector is sure', () => {
    expect(writtenLanguage('virtual host documentation', known)).toBe('en');
    expect(writtenLanguage('virtaul hosts', known)).toBe('en');
    expect(writtenLanguage('documentation des serveurs virtuels', known)).toBe('fr');
    expect(writtenLanguage('Paketverwaltung', known)).toBe('de');
    expect(writtenLanguage('configuración de red', known)).toBe('es');
  });

  it('tells it from the script: kana Japanese, hangul Korean, Han by the detector', () => {
    expect(writtenLanguage('虚拟主机', known)).toBe('zh');
    expect(writtenLanguage('バーチャルホスト', known)).toBe('ja');
    expect(writtenLanguage('설정 파일', known)).toBe('ko');
  });

  it('tells nothing from short, ambiguous or code-like queries', () => {
    expect(writtenLanguage('kernel', known)).toBeUndefined();
    expect(writtenLanguage('installation', known)).toBeUndefined();
    expect(writtenLanguage('Virtuelle Hosts Dokumentation', known)).toBeUndefined();
    expect(writtenLanguage('mod_rewrite', known)).toBeUndefined();
    expect(writtenLanguage('os.path.join', known)).toBeUndefined();
    expect(writtenLanguage('ProxyPass', known)).toBeUndefined();
  });

  it('answers only a language the site has pages in', () => {
    expect(writtenLanguage('virtual host documentation', (lang) => lang === 'de')).toBeUndefined();
    expect(writtenLanguage('バーチャルホスト', (lang) => lang === 'en')).toBeUndefined();
  });
});
