/**
 * What a die-code sheet holds: what `/code` reads from it. Condition tracks (attributes named `<name> track`, their
 * points 0–1000), action points, and conditions (`Conceded` among them). Die codes are given on the roll (`code:`),
 * so no skills or archetypes.
 */
import { rangeOf, type SheetRules } from '../../sheet.js';
import { ACTION_POINTS, isTrackAttribute, TRACK_MAX, TRACK_SUFFIX } from './tracks.js';

export const RESULT_POINTS_SHEET: SheetRules = {
  holds: `condition tracks (attributes named \`<name>${TRACK_SUFFIX}\`, e.g. \`Wounds${TRACK_SUFFIX}\`, set with \`/code track\`), ${ACTION_POINTS} and conditions; die codes are given on the roll (\`/code roll code:3D+2\`)`,
  start: 'Add its condition tracks with `/code track name:Wounds`; die codes are given on each roll (`/code roll code:3D+2`).',
  firstEntries: 'condition tracks (`/code track`)',
  skill: null,
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
