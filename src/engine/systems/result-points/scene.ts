/**
 * Scenes of seed 002, for conceding: a player who concedes "may take no more actions", resists only with fixed
 * values, and "receives an action point at the end of the scene". Pure: what is recorded, and how the current
 * scene is found from which scenes have ended.
 *
 * A scene belongs to a channel: scene 0 runs until a Dispatcher ends it (`/code scene-end`), then scene 1, and so on.
 * Each end and each concession is one record in the roll log under an id derived from the channel and the scene's
 * number, written at most once; so the bot keeps no scene in memory and a restart loses nothing.
 */

/** A scene holds at most this many concessions (each is a look-up when the scene ends). */
export const SCENE_CONCESSIONS_MAX = 25;

/** What the roll log holds for a scene (kind `code-scene`): a concession, the scene's end, an action point granted. */
export type SceneRecord =
  | {
      event: 'concede';
      scene: number;
      channelId: string;
      sheetId: number;
      sheet: string;
      /** The player whose character conceded; null for an NPC, who earns no action point (the seed gives it to players). */
      playerId: string | null;
    }
  | { event: 'end'; scene: number; channelId: string }
  | { event: 'action-point'; scene: number; channelId: string; sheetId: number; sheet: string; before: number; after: number };

/** The key scene ids are derived from: one per server, channel and scene number. */
export function sceneKey(guildId: string, channelId: string, scene: number): string {
  return `code-scene:${guildId}:${channelId}:${scene}`;
}

/** The labels of a scene's records, each derived with the scene's key into a roll id. */
export const SCENE_LABELS = {
  end: 'end',
  concession: (slot: number) => `concession:${slot}`,
  actionPoint: (sheetId: number) => `action-point:${sheetId}`,
} as const;

/**
 * The first scene that has not ended, given whether scene n has ended. Scenes end in order, so the ended ones are
 * 0 … k−1: found by doubling then halving, in about 2·log₂(k) look-ups however long the channel has played.
 */
export async function currentScene(ended: (scene: number) => Promise<boolean>): Promise<number> {
  if (!(await ended(0))) return 0;
  let done = 0;
  let open = 1;
  while (await ended(open)) {
    done = open;
    open *= 2;
  }
  while (open - done > 1) {
    const middle = Math.floor((done + open) / 2);
    if (await ended(middle)) done = middle;
    else open = middle;
  }
  return open;
}

/** Scene 0 is shown as "scene 1". */
export function sceneNumber(scene: number): number {
  return scene + 1;
}
