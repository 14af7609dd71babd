/**
 * A stored roll's effect on a sheet, made once (the damage of an attack on Health, a check's points on a condition
 * track): the attribute changes from the value stored at that moment, and a marker roll under an id derived from
 * the roll's lands in the same transaction, so a second press (at once, after a restart, from another process)
 * finds it taken and changes nothing. The marker carries the roll's seed and dice, so it replays as the roll did.
 */
import { rolledBy, type HandlerContext } from '../../src/discord/command.js';
import type { SystemId } from '../../src/engine/systems/index.js';
import type { AttributeChange, SheetRef } from '../../src/store/operators.js';
import type { StoredRoll } from '../../src/store/rolls.js';

export interface RollMarker {
  id: string;
  kind: string;
  system: SystemId;
  /** What the marker records beside the change, given the values before and after it. */
  inputs: (change: AttributeChange) => unknown;
}

export function changeAttributeOnce(
  context: HandlerContext,
  stored: StoredRoll,
  sheet: SheetRef,
  attribute: string,
  change: (value: number) => number,
  marker: RollMarker,
): Promise<AttributeChange | 'already made' | null> {
  return context.store.operators.changeAttribute(sheet, attribute, change, (changed) =>
    context.store.rolls.entry(marker.id, {
      ...rolledBy(context),
      kind: marker.kind,
      system: marker.system,
      inputs: marker.inputs(changed),
      seed: stored.seed,
      dice: stored.dice,
      result: stored.result,
      total: changed.after,
      challengeLevel: null,
      success: null,
    }),
  );
}
