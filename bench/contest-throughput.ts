/**
 * Whole contests through the fake Discord, every step an interaction (start with the challenger's skill and role,
 * accept, the acceptance form with the opponent's stakes, role and skill, agree: the dice roll), next to the same number of /roll challenge interactions in the same
 * run. One process, SQLite on a temporary file.
 */
import type { SandboxInteractionRequest } from '../src/sandbox/fake-discord.js';
import { ROLL, type Target } from './challenge-latency.js';

export const STEPS_PER_CONTEST = 4;

/** Gives sasha the sheet Kat (CQC 37) beside mike's Troy, who gets CQC 40. */
export async function prepareContests(target: Target): Promise<void> {
  const setup: SandboxInteractionRequest[] = [
    { user: 'sasha', command: 'sheet create', options: { name: 'Kat' } },
    { user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } },
    { user: 'mike', command: 'sheet skill set', options: { name: 'CQC', level: 40 } },
  ];
  for (const request of setup) await step(target, request, []);
}

async function step(target: Target, request: SandboxInteractionRequest, stepTimes: number[]) {
  const result = await target.fake.interact(request);
  if (result.errors.length > 0 || result.responses.length === 0) {
    throw new Error(`contest step ${JSON.stringify(request)} failed: ${JSON.stringify(result)}`);
  }
  if (result.firstResponseMs !== undefined) stepTimes.push(result.firstResponseMs);
  return result;
}

/** One whole contest, Kat attacking and Troy defending; returns when the result is on the message. */
export async function oneContest(target: Target, stepTimes: number[]): Promise<void> {
  const opening = await step(
    target,
    { user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Disarm Troy', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker' } },
    stepTimes,
  );
  const message = opening.responses[0]!.messageId!;
  const id = /Contest #(\d+)/.exec(JSON.stringify(opening.responses[0]!.embeds))![1];
  const presses: SandboxInteractionRequest[] = [
    { user: 'mike', button: `contest:accept:${id}`, message },
    { user: 'mike', modal: `contest:acceptform:${id}`, fields: { stakes: 'Kat is kicked', role: 'defender', skill: 'CQC', archetypes: '' }, message },
    { user: 'sasha', button: `contest:agree:${id}`, message },
  ];
  for (const press of presses) await step(target, press, stepTimes);
}

export interface ContestFigures {
  contests: number;
  contestsPerSecond: number;
  /** The same number of interactions as the contests took, as /roll challenge. */
  rollsPerSecondSameInteractions: number;
  interactionsPerSecond: { contests: number; rolls: number };
  stepMs: number[];
  /** Command → reply of each of those /roll challenge: a contest step's floor in the same run. */
  rollMs: number[];
}

export async function contestThroughput(target: Target, contests: number): Promise<ContestFigures> {
  const stepMs: number[] = [];
  const contestStart = performance.now();
  for (let i = 0; i < contests; i++) await oneContest(target, stepMs);
  const contestSeconds = (performance.now() - contestStart) / 1000;
  const interactions = contests * STEPS_PER_CONTEST;
  const rollMs: number[] = [];
  const rollStart = performance.now();
  for (let i = 0; i < interactions; i++) await step(target, ROLL, rollMs);
  const rollSeconds = (performance.now() - rollStart) / 1000;
  return {
    contests,
    contestsPerSecond: contests / contestSeconds,
    rollsPerSecondSameInteractions: interactions / rollSeconds,
    interactionsPerSecond: { contests: interactions / contestSeconds, rolls: interactions / rollSeconds },
    stepMs,
    rollMs,
  };
}
