// Scenes of seed 002: the current scene of a channel, found from which scenes have ended.
import { describe, expect, it } from 'vitest';
import { currentScene, sceneKey, SCENE_LABELS, sceneNumber } from '../../../../src/engine/systems/result-points/scene.js';

/** Whether scene n has ended, when scenes 0 … count−1 have; counts the look-ups. */
function endedBefore(count: number) {
  const asked: number[] = [];
  return { asked, ended: async (scene: number) => (asked.push(scene), scene < count) };
}

describe('the current scene of a channel', () => {
  it('is the first scene that has not ended, for every count of ended scenes', async () => {
    for (let count = 0; count <= 70; count++) expect(await currentScene(endedBefore(count).ended), String(count)).toBe(count);
  });

  it('is found in about 2·log₂ look-ups however many scenes have ended', async () => {
    const lookups = endedBefore(100_000);
    expect(await currentScene(lookups.ended)).toBe(100_000);
    expect(lookups.asked.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(100_000)) + 2);
  });

  it('is shown counting from 1', () => {
    expect(sceneNumber(0)).toBe(1);
  });

  it('is keyed by server, channel and number, so scenes of two channels never share a record', () => {
    expect(sceneKey('g', 'c1', 0)).not.toBe(sceneKey('g', 'c2', 0));
    expect(sceneKey('g1', 'c', 0)).not.toBe(sceneKey('g2', 'c', 0));
    expect(new Set([SCENE_LABELS.end, SCENE_LABELS.concession(0), SCENE_LABELS.concession(1), SCENE_LABELS.actionPoint(1)]).size).toBe(4);
  });
});
