/**
 * Word lists of the demo web: one vocabulary per topic, a general vocabulary shared by all
 * sites, a university vocabulary, and the words host names are made of. Real English words, so
 * that a search for "astronomy telescope" or "sourdough bread" finds sensible pages.
 *
 * Nouns are written `singular` or `singular/plural` when the plural is irregular.
 */

export interface Noun {
  readonly singular: string;
  readonly plural: string;
}

export interface WordPool {
  readonly nouns: readonly Noun[];
  readonly adjectives: readonly string[];
  /** Base forms ("observe"); third-person forms come from {@link thirdPerson}. */
  readonly verbs: readonly string[];
}

export interface Topic extends WordPool {
  /** The subject as a search word ("astronomy"). */
  readonly name: string;
  /** The university department that teaches it. */
  readonly department: string;
  /** A short phrase for taglines ("telescopes, planets and the night sky"). */
  readonly tagline: string;
}

function nouns(list: string): Noun[] {
  return list
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const [singular, plural] = entry.split('/');
      return { singular, plural: plural ?? pluralOf(singular) };
    });
}

function words(list: string): string[] {
  return list.trim().split(/\s+/);
}

/** Regular English plural. */
export function pluralOf(word: string): string {
  if (/(s|sh|ch|x|z)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Regular third-person singular ("watch" → "watches", "study" → "studies"). */
export function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

export const TOPICS: readonly Topic[] = [
  {
    name: 'astronomy',
    department: 'Astronomy',
    tagline: 'telescopes, planets and the night sky',
    nouns: nouns(`telescope galaxy planet star comet nebula/nebulae orbit moon eclipse meteor asteroid constellation
      observatory lens mirror satellite spectrum/spectra horizon cluster supernova/supernovae quasar crater astronomer
      eyepiece sky sun rocket planetarium exoplanet aurora solstice equinox dish starlight`),
    adjectives: words('distant bright faint lunar solar orbital celestial dark clear spiral infrared stellar cosmic'),
    verbs: words('observe orbit track photograph measure chart detect focus align spot study map'),
  },
  {
    name: 'cooking',
    department: 'Culinary Arts',
    tagline: 'recipes, kitchens and good food',
    nouns: nouns(`recipe kitchen oven sauce bread pasta soup spice knife/knives pan flour butter onion herb dough chef
      dessert salad roast stew pastry cheese tomato/tomatoes lemon broth grill skillet dumpling noodle pie cake
      vegetable ingredient meal sourdough`),
    adjectives: words('crispy savory fresh tender spicy sweet golden rustic smoky creamy hearty tangy'),
    verbs: words('bake simmer roast chop whisk season stir grill knead taste serve prepare'),
  },
  {
    name: 'gardening',
    department: 'Horticulture',
    tagline: 'gardens, plants and the growing season',
    nouns: nouns(`garden seed soil compost rose tulip shrub hedge greenhouse seedling bulb vine orchard trowel lawn
      meadow fern blossom root leaf/leaves weed mulch pot border flowerbed fertilizer sunflower lavender hydrangea
      allotment gardener perennial cutting trellis`),
    adjectives: words('hardy leafy flowering evergreen fragrant shady sunny fertile native dormant lush thorny organic'),
    verbs: words('plant prune water sow harvest transplant grow fertilize cultivate divide weed mulch'),
  },
  {
    name: 'music',
    department: 'Music',
    tagline: 'instruments, songs and concerts',
    nouns: nouns(`guitar piano/pianos violin melody chord rhythm concert orchestra album song drum singer composer
      symphony scale tempo harmony band note lyric choir cello/cellos trumpet saxophone festival record studio/studios
      microphone amplifier ballad sonata opera conductor riff`),
    adjectives: words('acoustic melodic electric classical lively harmonic soulful rhythmic loud mellow orchestral vintage'),
    verbs: words('play compose tune record perform rehearse strum sing arrange improvise mix conduct'),
  },
  {
    name: 'computing',
    department: 'Computer Science',
    tagline: 'software, networks and algorithms',
    nouns: nouns(`computer algorithm database server network compiler program processor memory keyboard browser
      protocol cache kernel function variable library framework cluster query index graph packet router thread
      script terminal laptop chip byte cloud crawler engine bug interface`),
    adjectives: words('digital parallel open secure fast virtual binary distributed efficient modular scalable encrypted'),
    verbs: words('compile debug deploy index encrypt optimize install configure crawl test parse cache'),
  },
  {
    name: 'football',
    department: 'Sports Science',
    tagline: 'matches, clubs and the beautiful game',
    nouns: nouns(`football match goal team league stadium coach player referee striker goalkeeper season tournament
      trophy pitch penalty kit fan derby cup midfielder defender tackle corner header transfer club fixture score
      whistle captain injury`),
    adjectives: words('attacking defensive thrilling muddy local professional injured unbeaten tactical young rival youth'),
    verbs: words('score defend tackle train coach kick pass shoot win sign celebrate referee'),
  },
  {
    name: 'travel',
    department: 'Geography',
    tagline: 'journeys, destinations and travel tips',
    nouns: nouns(`journey passport airport hotel beach island mountain village museum ferry train ticket itinerary
      backpack hostel suitcase map coast valley city harbour tourist lake route cathedral market castle bus trail
      cabin cruise resort glacier waterfall`),
    adjectives: words('scenic remote coastal historic crowded quiet tropical alpine budget exotic charming sunny'),
    verbs: words('visit explore book pack hike fly wander photograph cruise discover sail navigate'),
  },
  {
    name: 'history',
    department: 'History',
    tagline: 'empires, archives and the past',
    nouns: nouns(`empire kingdom castle battle treaty monarch manuscript archive dynasty revolution archaeologist ruin
      artifact chronicle century emperor siege colony parliament cathedral tomb scroll coin historian fortress pharaoh
      legion knight charter migration excavation relic temple`),
    adjectives: words('ancient medieval royal roman colonial forgotten imperial victorian early bronze gothic legendary'),
    verbs: words('excavate rule conquer invade document restore uncover translate preserve trace record defend'),
  },
  {
    name: 'medicine',
    department: 'Medicine',
    tagline: 'health, treatment and medical research',
    nouns: nouns(`patient doctor nurse vaccine clinic hospital symptom diagnosis/diagnoses therapy surgeon heart lung
      vitamin diet infection virus antibiotic tablet prescription allergy fever injury treatment pharmacy exercise
      muscle bone cell gene trial surgery medicine`),
    adjectives: words('chronic clinical healthy immune acute medical preventive cardiac gentle daily surgical mental'),
    verbs: words('diagnose treat prescribe vaccinate heal prevent monitor examine recover test reduce strengthen'),
  },
  {
    name: 'finance',
    department: 'Economics',
    tagline: 'money, markets and personal finance',
    nouns: nouns(`budget investment bank loan mortgage pension stock bond market dividend portfolio/portfolios tax
      saving account fund asset currency broker wallet invoice retirement salary expense economy trader exchange
      share price profit debt`),
    adjectives: words('financial annual fiscal stable volatile risky profitable monthly global prudent frugal liquid'),
    verbs: words('invest save borrow lend trade budget diversify repay earn spend forecast audit'),
  },
];

export const GENERAL_WORDS: WordPool = {
  nouns: nouns(`guide question idea story method community season week beginner expert lesson example challenge
    project detail tip mistake habit tradition problem answer resource reader photo list review plan weekend morning
    evening friend family neighbour volunteer workshop`),
  adjectives: words(`simple practical popular common modern useful careful surprising small large new old quick patient
    friendly curious important essential`),
  verbs: words(`explain discover compare describe improve share explore learn choose change follow find build check
    enjoy notice understand remember discuss recommend`),
};

export const UNIVERSITY_WORDS: WordPool = {
  nouns: nouns(`student lecture professor seminar course campus faculty degree laboratory library thesis/theses
    scholarship department tutorial exam researcher syllabus graduate`),
  adjectives: words('academic undergraduate postgraduate interdisciplinary scholarly international'),
  verbs: words('teach research enrol graduate publish supervise'),
};

/** First words of host names ("silver" in www.silver-comet.com). */
export const HOST_WORDS: readonly string[] = words(`silver golden north south east west little big blue green red
  bright quiet happy wild old new open high deep swift clever lucky sunny misty rocky maple oak cedar river stone
  harbor meadow copper iron crystal amber coral ivory velvet hidden urban royal noble modern simple daily global
  prime true pure summit pine willow fox owl falcon lantern beacon compass anchor`);

/** Subdomain labels of sites that share a pay-level domain with another site (news.example.org). */
export const SUBDOMAIN_LABELS: readonly string[] = words('news blog shop forum wiki docs events community');

/**
 * Top-level suffixes with their weights, including multi-part public suffixes (co.uk, com.au),
 * so that pay-level-domain code is exercised.
 */
export const TLD_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['com', 38],
  ['org', 14],
  ['net', 9],
  ['co.uk', 8],
  ['org.uk', 3],
  ['com.au', 4],
  ['de', 5],
  ['io', 5],
  ['fr', 3],
  ['ca', 3],
  ['edu', 3],
  ['co.jp', 2],
  ['info', 3],
];
