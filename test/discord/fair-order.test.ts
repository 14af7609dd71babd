import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { FairOrder } from '../../src/discord/fair-order.js';

type Step = { kind: 'push'; server: string; member: string } | { kind: 'shift' } | { kind: 'at once'; server: string; member: string };

/** A repeatable mix of arrivals, turns handed out and turns handed out at once, over `servers` servers of 4 members. */
function history(seed: string, servers: number, length: number): Step[] {
  const random = seedrandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const steps: Step[] = [];
  let waiting = 0;
  for (let i = 0; i < length; i++) {
    const server = `server${pick(servers)}`;
    // A flooder in the first server makes the lines uneven.
    const member = server === 'server0' && random() < 0.5 ? 'flooder' : `member${pick(4)}`;
    const roll = random();
    if (waiting === 0 && roll < 0.2) steps.push({ kind: 'at once', server, member });
    else if (waiting > 0 && roll < 0.35) {
      steps.push({ kind: 'shift' });
      waiting--;
    } else {
      steps.push({ kind: 'push', server, member });
      waiting++;
    }
  }
  return steps;
}

function replay(steps: Step[]): { order: FairOrder<string>; served: string[] } {
  const order = new FairOrder<string>();
  const served: string[] = [];
  steps.forEach((step, index) => {
    if (step.kind === 'push') order.push(step.server, step.member, `${step.server}/${step.member}#${index}`);
    else if (step.kind === 'at once') order.countTurn(step.server, step.member);
    else served.push(order.shift()!);
  });
  return { order, served };
}

/** Where a newcomer of `member` of `server` really lands: everyone waiting is served, and its place is counted. */
function realPlace(steps: Step[], server: string, member: string): number {
  const { order } = replay(steps);
  order.push(server, member, 'newcomer');
  const after: string[] = [];
  for (let next = order.shift(); next !== undefined; next = order.shift()) after.push(next);
  return after.indexOf('newcomer');
}

describe('the fair order', () => {
  it('serves a member with nothing queued before a flooder with a backlog, and the flooder again after', () => {
    const order = new FairOrder<string>();
    for (let i = 0; i < 5; i++) order.push('table-top', 'flooder', `flood ${i}`);
    order.push('table-top', 'ben', 'ben');
    expect([order.shift(), order.shift(), order.shift()]).toEqual(['flood 0', 'ben', 'flood 1']);
  });

  it('counts turns handed out at once: a member holding every turn waits behind a newcomer', () => {
    const order = new FairOrder<string>();
    for (let i = 0; i < 8; i++) order.countTurn('table-top', 'flooder');
    order.push('table-top', 'flooder', 'flood');
    order.push('table-top', 'ben', 'ben');
    expect([order.shift(), order.shift()]).toEqual(['ben', 'flood']);
  });

  it('forgets nothing while someone waits, and everything once nobody does', () => {
    const order = new FairOrder<string>();
    for (let i = 0; i < 3; i++) order.countTurn('table-top', 'flooder');
    order.push('table-top', 'flooder', 'flood');
    order.forget();
    order.push('table-top', 'ben', 'ben');
    expect(order.shift()).toBe('ben');
    expect(order.shift()).toBe('flood');
    order.forget();
    order.push('table-top', 'flooder', 'flood again');
    order.push('table-top', 'ben', 'ben again');
    expect(order.shift()).toBe('flood again');
  });

  it("tells a newcomer's place exactly inside one server", () => {
    for (let run = 0; run < 20; run++) {
      const steps = history(`one server ${run}`, 1, 60);
      const { order } = replay(steps);
      for (const member of ['flooder', 'member0', 'member3', 'newcomer']) {
        expect(order.placeOfNewcomer('server0', member), `run ${run}, ${member}`).toBe(realPlace(steps, 'server0', member));
      }
    }
  });

  it("tells a newcomer's place across servers within one turn per other server (ties between servers count as ahead)", () => {
    for (let run = 0; run < 20; run++) {
      const steps = history(`three servers ${run}`, 3, 80);
      const { order } = replay(steps);
      for (const server of ['server0', 'server1', 'server2', 'new server']) {
        for (const member of ['flooder', 'member1', 'newcomer']) {
          const real = realPlace(steps, server, member);
          const told = order.placeOfNewcomer(server, member);
          expect(told, `run ${run}, ${server}/${member}`).toBeGreaterThanOrEqual(real);
          expect(told, `run ${run}, ${server}/${member}`).toBeLessThanOrEqual(real + 2);
        }
      }
    }
  });

  it('serves everyone who waits, exactly once', () => {
    const steps = history('everyone', 3, 300);
    const { order, served } = replay(steps);
    for (let next = order.shift(); next !== undefined; next = order.shift()) served.push(next);
    const pushed = steps.flatMap((step, index) => (step.kind === 'push' ? [`${step.server}/${step.member}#${index}`] : []));
    expect([...served].sort()).toEqual([...pushed].sort());
    expect(order.size).toBe(0);
  });
});
