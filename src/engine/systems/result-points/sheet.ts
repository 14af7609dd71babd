/**
 * What a die-code sheet holds: what `/code` reads from it. Abilities (skills whose level is their rank's fixed
 * value, 3 × dice + pips: 3D+2 is kept as 11, see abilities.ts), rolled by name; condition tracks (attributes named
 * `<name> track`, their points 0–1000), action points, and conditions (`Conceded` among them).
 */
import { rangeOf, type SheetRules } from '../../sheet.js';
import { RANK_VALUE_MAX, RANK_VALUE_MIN } from './abilities.js';
import { ACTION_POINTS, isTrackAttribute, TRACK_MAX, TRACK_SUFFIX } from './tracks.js';

export const RESULT_POINTS_SHEET: SheetRules = {
  holds: `abilities, each a rank kept as its fixed value (3 × dice + pips: 3D+2 is 11; set by die code with \`/code ability\`), condition tracks (attributes named \`<name>${TRACK_SUFFIX}\`, e.g. \`Wounds${TRACK_SUFFIX}\`, set with \`/code track\`), ${ACTION_POINTS} and conditions`,
  start: 'Add its abilities with `/code ability name:Blaster code:3D+2` (then `/code roll code:Blaster`) and its condition tracks with `/code track name:Wounds`.',
  firstEntries: 'abilities (`/code ability`)',
  skill: {
    known: [],
    custom: true,
    describe: `abilities of any name, each its rank's fixed value ${RANK_VALUE_MIN}–${RANK_VALUE_MAX} (3 × dice + pips: 1D is 3, 3D+2 is 11; \`/code ability\` sets it from the die code)`,
    range: rangeOf(RANK_VALUE_MIN, RANK_VALUE_MAX),
  },
  archetype: null,
  condition: { known: [], custom: true, describe: 'conditions of any name', range: rangeOf(-100, 100) },
  attribute: {
    known: [ACTION_POINTS],
    custom: true,
    accepts: isTrackAttribute,
    describe: `condition tracks named \`<name>${TRACK_SUFFIX}\` (\`/code track\`) and ${ACTION_POINTS}`,
    range: rangeOf(0, TRACK_MAX),
  },
};
