/**
 * The notredame balls of the eight validation sets of research/docs/history.md, each printed by its rule
 * (research/scripts/validation{,2,3,4,5,6,7,8}-domains.ts: the rule and the seed are there) and fixed before any
 * method was run on it. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
 * `node bin/run-ts.js research/scripts/validation-cases.ts SET` prints a set's `--domain` arguments for
 * research/studies/validation.sh.
 */
import { fileURLToPath } from 'node:url';
import { KNOWN_CASES } from './known-domains.ts';

/** One validation set as the research scripts' graph cases: its balls on notredame, a topic-like budget. */
function ballSet<S extends string>(set: S, domains: readonly string[]) {
  return [{ set, g: 'notredame', nodes: false, site: false, domains }] as const;
}

// validation (seed 2027, 10 balls).
export const VALIDATION_CASES = ballSet('validation', [
  'ball:224290:3', 'ball:198699:3', 'ball:62521:3', 'ball:231499:3', 'ball:200100:3', 'ball:259772:3', 'ball:253776:3',
  'ball:265087:3', 'ball:160590:3', 'ball:84495:3',
]);

// validation2 (seed 2028, 10 balls).
export const VALIDATION2_CASES = ballSet('validation2', [
  'ball:292971:3', 'ball:143184:3', 'ball:235297:3', 'ball:259462:3', 'ball:207943:3', 'ball:182989:3', 'ball:22941:3',
  'ball:155127:3', 'ball:27470:3', 'ball:94927:3',
]);

// validation3 (seed 2029, 20 balls).
export const VALIDATION3_CASES = ballSet('validation3', [
  'ball:257700:3', 'ball:225285:3', 'ball:177630:3', 'ball:228520:3', 'ball:1160:3', 'ball:215584:3', 'ball:246972:3',
  'ball:121432:3', 'ball:286296:3', 'ball:47246:3', 'ball:35158:3', 'ball:78327:3', 'ball:1216:3', 'ball:178050:3',
  'ball:69569:3', 'ball:256108:3', 'ball:270002:3', 'ball:251759:3', 'ball:244511:3', 'ball:252877:3',
]);

// validation4 (seed 2030, 20 balls).
export const VALIDATION4_CASES = ballSet('validation4', [
  'ball:267849:3', 'ball:202275:3', 'ball:41612:3', 'ball:170897:3', 'ball:13290:3', 'ball:177303:3', 'ball:230377:3',
  'ball:63746:3', 'ball:251865:3', 'ball:65442:3', 'ball:825:3', 'ball:171497:3', 'ball:309857:3', 'ball:179272:3',
  'ball:252043:3', 'ball:37612:3', 'ball:244897:3', 'ball:256711:3', 'ball:34761:3', 'ball:189313:3',
]);

// validation5 (seed 2031, 40 balls).
export const VALIDATION5_CASES = ballSet('validation5', [
  'ball:289235:3', 'ball:47245:3', 'ball:164055:3', 'ball:226500:3', 'ball:38014:3', 'ball:187490:3',
  'ball:324744:3', 'ball:6396:3', 'ball:256731:3', 'ball:239499:3', 'ball:317611:3', 'ball:319602:3',
  'ball:105220:3', 'ball:26056:3', 'ball:1275:3', 'ball:91273:3', 'ball:291185:3', 'ball:269063:3', 'ball:217629:3',
  'ball:7:3', 'ball:32847:3', 'ball:264436:3', 'ball:222712:3', 'ball:226421:3', 'ball:54990:3', 'ball:88505:3',
  'ball:104020:3', 'ball:282043:3', 'ball:5945:3', 'ball:150144:3', 'ball:91408:3', 'ball:222691:3', 'ball:53791:3',
  'ball:287352:3', 'ball:291351:3', 'ball:21836:3', 'ball:110618:3', 'ball:16591:3', 'ball:208477:3', 'ball:9950:3',
]);

// validation6 (seed 2032, 40 balls).
export const VALIDATION6_CASES = ballSet('validation6', [
  'ball:163193:3', 'ball:248788:3', 'ball:62994:3', 'ball:10228:3', 'ball:185739:3', 'ball:62080:3', 'ball:1690:3',
  'ball:37075:3', 'ball:26507:3', 'ball:175930:3', 'ball:25397:3', 'ball:313618:3', 'ball:64078:3', 'ball:72154:3',
  'ball:170:3', 'ball:75528:3', 'ball:51560:3', 'ball:16331:3', 'ball:5619:3', 'ball:213574:3', 'ball:239911:3',
  'ball:24399:3', 'ball:187071:3', 'ball:172076:3', 'ball:88115:3', 'ball:260801:3', 'ball:39359:3', 'ball:80582:3',
  'ball:266295:3', 'ball:301663:3', 'ball:97734:3', 'ball:95686:3', 'ball:215314:3', 'ball:20821:3', 'ball:68953:3',
  'ball:291144:3', 'ball:200819:3', 'ball:149539:3', 'ball:39322:3', 'ball:7900:3',
]);

// validation7 (seed 2033, 40 balls).
export const VALIDATION7_CASES = ballSet('validation7', [
  'ball:215297:3', 'ball:18270:3', 'ball:300017:3', 'ball:5435:3', 'ball:141875:3', 'ball:5903:3', 'ball:16471:3',
  'ball:12254:3', 'ball:120313:3', 'ball:112474:3', 'ball:6029:3', 'ball:209357:3', 'ball:32104:3', 'ball:62785:3',
  'ball:219:3', 'ball:154478:3', 'ball:5376:3', 'ball:314663:3', 'ball:117249:3', 'ball:14957:3', 'ball:9:3',
  'ball:116422:3', 'ball:130849:3', 'ball:190405:3', 'ball:237022:3', 'ball:32954:3', 'ball:24914:3',
  'ball:215329:3', 'ball:11303:3', 'ball:245940:3', 'ball:18977:3', 'ball:14534:3', 'ball:24911:3', 'ball:307383:3',
  'ball:39175:3', 'ball:221938:3', 'ball:1003:3', 'ball:32477:3', 'ball:131166:3', 'ball:53991:3',
]);

// validation8 (seed 2034, 40 balls).
export const VALIDATION8_CASES = ballSet('validation8', [
  'ball:242:3', 'ball:11982:3', 'ball:7753:3', 'ball:172072:3', 'ball:67289:3', 'ball:43694:3', 'ball:284076:3',
  'ball:116248:3', 'ball:162617:3', 'ball:1239:3', 'ball:73156:3', 'ball:12834:3', 'ball:14981:3', 'ball:320323:3',
  'ball:149448:3', 'ball:13385:3', 'ball:26217:3', 'ball:25807:3', 'ball:1727:3', 'ball:91527:3', 'ball:94807:3',
  'ball:25963:3', 'ball:42503:3', 'ball:47623:3', 'ball:63118:3', 'ball:51589:3', 'ball:70980:3', 'ball:205916:3',
  'ball:174005:3', 'ball:13664:3', 'ball:830:3', 'ball:47714:3', 'ball:1958:3', 'ball:20771:3', 'ball:124461:3',
  'ball:33010:3', 'ball:156663:3', 'ball:177306:3', 'ball:131239:3', 'ball:5434:3',
]);

export const VALIDATION_SETS = {
  validation: VALIDATION_CASES,
  validation2: VALIDATION2_CASES,
  validation3: VALIDATION3_CASES,
  validation4: VALIDATION4_CASES,
  validation5: VALIDATION5_CASES,
  validation6: VALIDATION6_CASES,
  validation7: VALIDATION7_CASES,
  validation8: VALIDATION8_CASES,
} as const;

export function isValidationSet(name: string | undefined): name is keyof typeof VALIDATION_SETS {
  return name !== undefined && Object.hasOwn(VALIDATION_SETS, name);
}

/**
 * The notredame balls known when `set` was drawn, which its balls may share at most half their pages with: the tuned
 * and held-out ones and those of every validation set before it.
 */
export function ballsKnownBefore(set: keyof typeof VALIDATION_SETS): string[] {
  const names = Object.keys(VALIDATION_SETS) as Array<keyof typeof VALIDATION_SETS>;
  type Case = { readonly g: string; readonly domains: readonly string[] };
  const earlier = names.slice(0, names.indexOf(set)).flatMap((name): readonly Case[] => VALIDATION_SETS[name]);
  return [...KNOWN_CASES, ...earlier].filter((c) => c.g === 'notredame').flatMap((c) => [...c.domains]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const set = process.argv[2];
  if (!isValidationSet(set)) {
    console.error(`unknown validation set "${set}"; choose from ${Object.keys(VALIDATION_SETS).join(', ')}`);
    process.exit(2);
  }
  console.log(VALIDATION_SETS[set][0].domains.map((d) => `--domain ${d}`).join(' '));
}
