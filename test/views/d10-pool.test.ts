import { describe, expect, it } from 'vitest';
import { nextStepInput, resolveCumulativeStep, type CumulativeStepInput } from '../../src/engine/systems/d10-pool/cumulative.js';
import { seededRng } from '../../src/engine/rng.js';
import { cumulativeMessage, d10Ids, type StoredStep } from '../../src/views/d10-pool.js';
import { DISCORD_LIMITS } from '../../src/views/limits.js';

describe('the cumulative roll message', () => {
  it('stays inside Discord limits at 25 rolls of 30 dice: the oldest rolls fold away, the button id is short', () => {
    let input: CumulativeStepInput = {
      dice: 30, targetNumber: 100, modifier: -50, calm: true, target: 1000, count: null, maxRolls: 25,
      cumulativeId: 'abcdefgh', step: 1, before: { total: 0, successes: 0 },
    };
    const steps: StoredStep[] = [];
    for (let step = 1; step <= 24; step++) {
      const result = resolveCumulativeStep(input, seededRng(`fold-${step}`));
      steps.push({ rollId: `roll${String(step).padStart(4, '0')}`, result });
      input = nextStepInput(result);
    }
    const message = cumulativeMessage(steps, 'A very long name '.repeat(5));
    const embed = message.embeds![0]!;
    expect(embed.description!.length).toBeLessThanOrEqual(DISCORD_LIMITS.embedDescription);
    expect(embed.description).toMatch(/… \d+ earlier rolls \(see \/log\)/);
    expect(embed.description).toContain('**24.**');
    const button = (message.components![0]!.components[0] as { custom_id: string }).custom_id;
    expect(button).toBe('d10:again:abcdefgh:25');
    expect(d10Ids.encode({ cumulativeId: 'abcdefgh', step: 25 }).length).toBeLessThanOrEqual(DISCORD_LIMITS.customId);
  });
});
