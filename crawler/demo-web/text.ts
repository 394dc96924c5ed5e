/**
 * Readable generated text: sentences, titles and headings drawn from a topic vocabulary mixed
 * with general (and, on the university site, academic) words. Pure: the output depends only on
 * the random source passed in.
 */
import { GENERAL_WORDS, UNIVERSITY_WORDS, thirdPerson, type Noun, type Topic, type WordPool } from './vocabulary.ts';

export type Random = () => number;

/** The words one page draws from: mostly its topic, some general words, some academic words. */
export interface TextVoice {
  readonly topic: Topic | undefined;
  readonly academic: boolean;
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function titleCase(text: string): string {
  const small = new Set(['a', 'an', 'and', 'the', 'of', 'to', 'in', 'on', 'for', 'with', 'near', 'at', 'by', 'from']);
  return text
    .split(' ')
    .map((word, i) => (i > 0 && small.has(word) ? word : capitalise(word)))
    .join(' ');
}

function pool(random: Random, voice: TextVoice): WordPool {
  const r = random();
  if (voice.academic) {
    if (voice.topic && r < 0.55) return voice.topic;
    return r < 0.8 ? UNIVERSITY_WORDS : GENERAL_WORDS;
  }
  if (voice.topic && r < 0.72) return voice.topic;
  return GENERAL_WORDS;
}

function noun(random: Random, voice: TextVoice): Noun {
  return pick(random, pool(random, voice).nouns);
}

function adjective(random: Random, voice: TextVoice): string {
  return pick(random, pool(random, voice).adjectives);
}

function verb(random: Random, voice: TextVoice): string {
  return pick(random, pool(random, voice).verbs);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

const PREPOSITIONS = ['near', 'with', 'for', 'beside', 'around', 'beyond', 'under', 'across', 'behind', 'inside', 'after', 'before'];
const TIMES = [
  'every spring',
  'in the evening',
  'last year',
  'this week',
  'at night',
  'during the winter',
  'after the season',
  'every morning',
  'in the summer',
  'on most weekends',
  'since the autumn',
  'once a month',
];
const OPENERS = ['In practice', 'For beginners', 'According to our readers', 'As a rule', 'Surprisingly', 'Most of the time', 'In our experience', 'Of course'];

const SUBJECT_SENTENCES: ReadonlyArray<(subject: string) => string> = [
  (s) => `Anyone interested in ${s} will recognise this.`,
  (s) => `It is one of the oldest questions in ${s}.`,
  (s) => `Readers who follow ${s} ask about it often.`,
  (s) => `Nothing else in ${s} is quite like it.`,
];

type SentenceTemplate = (random: Random, voice: TextVoice) => string;

const SENTENCES: readonly SentenceTemplate[] = [
  (r, v) => `The ${adjective(r, v)} ${noun(r, v).singular} ${thirdPerson(verb(r, v))} the ${noun(r, v).singular} ${pick(r, PREPOSITIONS)} the ${adjective(r, v)} ${noun(r, v).singular}.`,
  (r, v) => `Most ${noun(r, v).plural} ${verb(r, v)} ${adjective(r, v)} ${noun(r, v).plural} ${pick(r, TIMES)}.`,
  (r, v) => `Our ${adjective(r, v)} guide to ${noun(r, v).plural} ${thirdPerson(verb(r, v))} how ${noun(r, v).plural} ${verb(r, v)} the ${noun(r, v).singular}.`,
  (r, v) => `${capitalise(article(noun(r, v).singular))} can ${verb(r, v)} ${article(adjective(r, v))} ${noun(r, v).singular} when the ${noun(r, v).singular} is ${adjective(r, v)}.`,
  (r, v) => `${capitalise(noun(r, v).plural)} and ${noun(r, v).plural} are ${adjective(r, v)} ${pick(r, PREPOSITIONS)} every ${noun(r, v).singular}.`,
  (r, v) => `Why do ${noun(r, v).plural} ${verb(r, v)} the ${adjective(r, v)} ${noun(r, v).singular}?`,
  (r, v) => `Experts ${verb(r, v)} that the ${noun(r, v).singular} ${thirdPerson(verb(r, v))} ${adjective(r, v)} ${noun(r, v).plural}.`,
  (r, v) => `${capitalise(pick(r, TIMES))}, the ${noun(r, v).singular} ${thirdPerson(verb(r, v))} ${adjective(r, v)} ${noun(r, v).plural} ${pick(r, PREPOSITIONS)} the ${noun(r, v).singular}.`,
  (r, v) => `${pick(r, OPENERS)}, ${article(adjective(r, v))} ${noun(r, v).singular} is the best way to ${verb(r, v)} ${noun(r, v).plural}.`,
  (r, v) => `We ${verb(r, v)} ${noun(r, v).plural} ${pick(r, TIMES)} and ${verb(r, v)} the ${adjective(r, v)} ${noun(r, v).plural}.`,
];

export function sentence(random: Random, voice: TextVoice): string {
  return pick(random, SENTENCES)(random, voice);
}

export function paragraph(random: Random, voice: TextVoice, sentences = 3 + Math.floor(random() * 3)): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(sentence(random, voice));
  // Name the subject now and then, as real articles do, so topic searches match.
  if (voice.topic && random() < 0.5) parts.push(pick(random, SUBJECT_SENTENCES)(voice.topic.name));
  return parts.join(' ');
}

type TitleTemplate = (random: Random, voice: TextVoice) => string;

const TITLES: readonly TitleTemplate[] = [
  (r, v) => `${adjective(r, v)} ${noun(r, v).plural} and the ${noun(r, v).singular}`,
  (r, v) => `how to ${verb(r, v)} ${article(adjective(r, v))} ${noun(r, v).singular}`,
  (r, v) => `the ${noun(r, v).singular} ${noun(r, v).singular}: ${article(adjective(r, v))} guide`,
  (r, v) => `notes on ${adjective(r, v)} ${noun(r, v).plural}`,
  (r, v) => `${noun(r, v).plural} ${pick(r, PREPOSITIONS)} the ${noun(r, v).singular}`,
  (r, v) => `why ${noun(r, v).plural} ${verb(r, v)} ${noun(r, v).plural}`,
  (r, v) => `${article(adjective(r, v))} ${noun(r, v).singular} for every ${noun(r, v).singular}`,
  (r, v) => `ten ${adjective(r, v)} ${noun(r, v).plural} to ${verb(r, v)}`,
];

/** An article title in title case ("Bright Comets and the Telescope"). */
export function articleTitle(random: Random, voice: TextVoice): string {
  return titleCase(pick(random, TITLES)(random, voice));
}

/** A sub-heading ("Choosing a lens"). */
export function heading(random: Random, voice: TextVoice): string {
  const forms = [
    () => `Choosing ${article(adjective(random, voice))} ${noun(random, voice).singular}`,
    () => `${capitalise(adjective(random, voice))} ${noun(random, voice).plural}`,
    () => `What ${noun(random, voice).plural} ${verb(random, voice)}`,
    () => `Before you ${verb(random, voice)}`,
    () => `The ${noun(random, voice).singular} ${pick(random, TIMES)}`,
  ];
  return pick(random, forms)();
}

/** A URL slug from a title: lowercase words joined by hyphens, at most `maxWords` words. */
export function slugOf(title: string, maxWords = 6): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0 && !['a', 'an', 'the', 'and', 'of', 'to', 'for'].includes(w))
    .slice(0, maxWords)
    .join('-');
}
