/**
 * Whether the dice behave as their odds say (`/stats`): the successes the stored odds expect against the successes
 * got, how unusual the difference is, and whether the D100's faces fall evenly. Pure: the rolls' odds, verdicts and
 * faces in, numbers out.
 *
 * The count of successes of n rolls with chances p₁…pₙ follows the Poisson-binomial distribution; it is computed
 * exactly (no normal approximation, which misleads on a handful of rolls or on odds near 0 or 1) by adding one roll
 * at a time: P_k after roll i = P_k·(1 − pᵢ) + P_{k−1}·pᵢ. That is n²/2 steps, so the rolls weighed are bounded.
 */

/** The most rolls one answer weighs: the newest of its scope. n²/2 ≈ 50 million steps at most (tens of ms). */
export const CALIBRATION_ROLLS_MAX = 10_000;

/** Fewer D100 faces than this and the chi-square test is not to be trusted (five expected in each of ten bins). */
export const HISTOGRAM_FACES_MIN = 50;

export const HISTOGRAM_BINS = 10;

/** A roll as /stats weighs it: its exact chance of success and whether it succeeded. */
export interface WeighedRoll {
  odds: number;
  success: boolean;
}

/** P(X = k) for k = 0…n, X the number of successes of independent rolls with these chances. */
export function poissonBinomial(chances: readonly number[]): Float64Array {
  for (const p of chances) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`a chance is from 0 to 1, not ${p}`);
  }
  const pmf = new Float64Array(chances.length + 1);
  pmf[0] = 1;
  let certain = 0;
  let rolled = 0;
  for (const p of chances) {
    // A certain success shifts the whole distribution by one; a certain failure leaves it as it is.
    if (p === 1) certain++;
    if (p === 0 || p === 1) continue;
    rolled++;
    for (let k = rolled; k >= 1; k--) pmf[k] = pmf[k]! * (1 - p) + pmf[k - 1]! * p;
    pmf[0] = pmf[0]! * (1 - p);
  }
  if (certain > 0) {
    pmf.copyWithin(certain, 0, rolled + 1);
    pmf.fill(0, 0, certain);
  }
  return pmf;
}

/**
 * How unusual `got` successes are: the chance of a count at least as far out in either direction, as twice the
 * smaller tail (P(X ≤ got) or P(X ≥ got)), at most 1.
 */
export function twoSidedPValue(pmf: Float64Array, got: number): number {
  if (!Number.isInteger(got) || got < 0 || got >= pmf.length) throw new RangeError(`${got} successes of ${pmf.length - 1} rolls cannot be`);
  let below = 0;
  for (let k = 0; k <= got; k++) below += pmf[k]!;
  let above = 0;
  for (let k = got; k < pmf.length; k++) above += pmf[k]!;
  return Math.min(1, 2 * Math.min(below, above));
}

/** The regularized upper incomplete gamma function Q(a, x) (series below a + 1, continued fraction above). */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  // Lentz's method for the continued fraction of Q.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(logPrefix) * h);
}

/** ln Γ(a) by Lanczos (g = 7, nine terms): exact to about 15 digits for a > 0. */
function logGamma(a: number): number {
  const g = 7;
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (a < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * a)) - logGamma(1 - a);
  const z = a - 1;
  let sum = c[0]!;
  for (let i = 1; i < g + 2; i++) sum += c[i]! / (z + i);
  const t = z + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The chance a chi-square statistic with `degrees` degrees of freedom is at least `statistic`. */
export function chiSquarePValue(statistic: number, degrees: number): number {
  return upperGamma(degrees / 2, statistic / 2);
}

/** The D100 faces in ten bins of ten (1–10, 11–20 … 91–100). */
export function d100Histogram(faces: readonly number[]): number[] {
  const bins = new Array<number>(HISTOGRAM_BINS).fill(0);
  for (const face of faces) {
    if (!Number.isInteger(face) || face < 1 || face > 100) throw new RangeError(`a D100 shows 1–100, not ${face}`);
    bins[Math.floor((face - 1) / 10)]!++;
  }
  return bins;
}

/** Pearson's chi-square of counts against an even spread, and its p-value (bins − 1 degrees of freedom). */
export function uniformity(bins: readonly number[]): { statistic: number; pValue: number } {
  const total = bins.reduce((sum, count) => sum + count, 0);
  if (total === 0) return { statistic: 0, pValue: 1 };
  const expected = total / bins.length;
  const statistic = bins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
  return { statistic, pValue: chiSquarePValue(statistic, bins.length - 1) };
}

/** The successes of a scope's rolls set against their odds. */
export interface SuccessCalibration {
  rolls: number;
  got: number;
  /** Σp: the successes the odds expect. */
  expected: number;
  /** The standard deviation of the count, √Σp(1 − p). */
  spread: number;
  pValue: number;
}

/** At most CALIBRATION_ROLLS_MAX rolls. */
export function calibrate(rolls: readonly WeighedRoll[]): SuccessCalibration {
  if (rolls.length > CALIBRATION_ROLLS_MAX) throw new RangeError(`at most ${CALIBRATION_ROLLS_MAX} rolls are weighed at once, not ${rolls.length}`);
  const chances = rolls.map((roll) => roll.odds);
  let expected = 0;
  let got = 0;
  let variance = 0;
  for (const roll of rolls) {
    expected += roll.odds;
    variance += roll.odds * (1 - roll.odds);
    if (roll.success) got++;
  }
  const pValue = rolls.length === 0 ? 1 : twoSidedPValue(poissonBinomial(chances), got);
  return { rolls: rolls.length, got, expected, spread: Math.sqrt(variance), pValue };
}

/** Rolls grouped by their odds, in bands of 20 %: a band's expected successes (Σp), its successes and its rolls. */
export interface OddsBand {
  /** The band's lowest odds, in percent: 0, 20, 40, 60, 80 (the last band holds 100 %). */
  from: number;
  rolls: number;
  expected: number;
  got: number;
}

export const ODDS_BANDS = 5;

export function oddsBands(rolls: readonly WeighedRoll[]): OddsBand[] {
  const bands: OddsBand[] = Array.from({ length: ODDS_BANDS }, (_, index) => ({ from: (index * 100) / ODDS_BANDS, rolls: 0, expected: 0, got: 0 }));
  for (const roll of rolls) {
    const band = bands[Math.min(ODDS_BANDS - 1, Math.floor(roll.odds * ODDS_BANDS))]!;
    band.rolls++;
    band.expected += roll.odds;
    if (roll.success) band.got++;
  }
  return bands;
}

/** "1 in 40": a p-value as odds people read, two significant figures. */
function oneIn(pValue: number): string {
  const n = 1 / pValue;
  const digits = Math.max(0, Math.floor(Math.log10(n)) - 1);
  const rounded = Math.round(n / 10 ** digits) * 10 ** digits;
  return `1 in ${rounded.toLocaleString('en-US')}`;
}

/**
 * A p-value in words: how often chance alone gives a difference at least this large. Below 5 % it is named as
 * odds ("unusual: about 1 in 40"); a difference that chance gives often is said to be within chance.
 */
export function chanceWords(pValue: number): string {
  if (pValue >= 0.2) return 'well within chance';
  if (pValue >= 0.05) return `within chance (about ${oneIn(pValue)} would be this far off)`;
  if (pValue >= 0.001) return `unusual: about ${oneIn(pValue)}`;
  if (pValue >= 1e-6) return `very unusual: about ${oneIn(pValue)}`;
  return 'far beyond chance: under 1 in a million';
}
