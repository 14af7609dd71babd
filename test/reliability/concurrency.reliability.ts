// The concurrency part of the reliability suite (issue 7): CONCURRENCY_CONTESTS (default 100) contests played at
// once through the fake Discord, every contest advanced together step by step: all /contest start at once (skill and
// role chosen there), all accepts, all forms (the opponent's role and skill), then every challenger presses Agree,
// which rolls the dice, twice at once. A quarter of the contests are two attackers whose first round is a sure tie,
// so the tie → another round (both at once) → skill menus (both at once) → Ready (each player twice at once) path is
// raced too.
//
// Every contest must be resolved exactly once: one roll in the roll log per round and none more, the stored state
// resolved, the message showing one result, one result message posted per round; and every interaction answered within Discord's 3 s, no Discord rule
// broken, no error logged. The figures (latency per step, late answers, doubles) are printed whatever happens: a
// bot that cannot answer in time under this load is a finding to report, not a deadline to loosen.
//
// Run with `npm run test:reliability` (vitest.reliability.config.ts); `npm test` does not pick this file up.
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import type { ContestState } from '../../src/engine/systems/tactalk/contest.js';
import type { SandboxInteractionRequest } from '../../src/sandbox/fake-discord.js';
import { captureBotLog } from '../helpers/bot-log.js';
import { contestIdOf, formatLatency, latencyFigures, movedTheContest, playAtOnce, sheetFile, type Played } from '../helpers/contest-play.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CONTESTS = Number(process.env.CONCURRENCY_CONTESTS ?? 100);
const DEADLINE_MS = 3000;
// A ring: player i challenges player i+1, so everyone plays two contests at once (the limit is 3 open ones), as
// challenger in one and as opponent in the other, with one sheet serving both.
const PLAYERS = Array.from({ length: Math.max(CONTESTS, 2) }, (_, i) => `racer${i}`);

// The levels force the outcomes the test needs. A side's CL is the other side's skill level: against a level-0
// skill a D100 always succeeds, against a level-100 one it almost never does.
const ZERO = ['Nil', 'Zero', 'Naught'];
const HUNDRED = ['Max', 'Top', 'Peak'];
const PLAIN = ['CQC', 'Stealth', 'Climbing', 'Driving', 'Athletics', 'Lock Picking'];
const SKILLS = [...ZERO.map((name) => ({ name, level: 0 })), ...HUNDRED.map((name) => ({ name, level: 100 })), ...PLAIN.map((name, i) => ({ name, level: 35 + 5 * i }))];

type Side = 'challenger' | 'opponent';

interface Game {
  index: number;
  challenger: string;
  opponent: string;
  /** Two attackers whose first round ties (both succeed); later rounds make the challenger fail. */
  tie: boolean;
  id?: string;
  message?: string;
  /** The skills each side picked, round by round. */
  picked: Record<Side, string[]>;
}

interface StepFigures {
  name: string;
  interactions: number;
  /** Interactions with no accepted first answer, or one after DEADLINE_MS. */
  late: number;
  /** When each first answer reached the fake, late ones (which it refused) included. */
  firstResponseMs: number[];
  /** Interactions the bot never tried to answer at all. */
  unanswered: number;
  wallMs: number;
  /** CPU time of this process (the bot, the fake and the test) for the step: what the load costs, whatever else runs. */
  cpuMs: number;
  /** The longest the event loop went without turning: timers (the deadline guard's) and sockets wait that long. */
  loopBlockedMs: number;
}

function skillFor(game: Game, side: Side): string {
  const round = game.picked[side].length;
  const used = new Set(game.picked[side]);
  let wanted: string | undefined;
  if (!game.tie) wanted = side === 'challenger' ? 'CQC' : 'Stealth';
  else if (round === 0) wanted = ZERO[0]; // both: the other side's CL is 0, so both succeed → a tie
  else wanted = (side === 'challenger' ? ZERO : HUNDRED).find((name) => !used.has(name)); // the challenger needs a 100
  const name = wanted ?? SKILLS.map((skill) => skill.name).find((candidate) => !used.has(candidate))!;
  game.picked[side].push(name);
  return name;
}

it(`resolves ${CONTESTS} contests played at once exactly once each, every answer within ${DEADLINE_MS / 1000} s`, async () => {
  const log = captureBotLog();
  const sandbox: TestSandbox = await startTestSandbox({ log: log.logger });
  const problems: string[] = [];
  const steps: StepFigures[] = [];
  const games: Game[] = Array.from({ length: CONTESTS }, (_, index) => ({
    index,
    challenger: PLAYERS[index]!,
    opponent: PLAYERS[(index + 1) % PLAYERS.length]!,
    tie: index % 4 === 0,
    picked: { challenger: [], opponent: [] },
  }));
  const started = performance.now();
  // Other work on the machine shows up as a slow bot: the figures say how busy it was.
  const loadAtStart = loadavg()[0]!.toFixed(2);
  let interactions = 0;
  const moves = { agree: 0, ready: 0 };
  let resolved = 0;
  let doubleRolls = 0;
  let ties = 0;

  /** Plays one batch at once and checks each answer in time, within the rules, not an apology. */
  const play = async (name: string, requests: SandboxInteractionRequest[]): Promise<Played[]> => {
    const stepStarted = performance.now();
    const cpuBefore = process.cpuUsage();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const played = await playAtOnce(sandbox.fake, log, requests);
    loop.disable();
    const cpu = process.cpuUsage(cpuBefore);
    const figures: StepFigures = {
      name,
      interactions: played.length,
      late: 0,
      firstResponseMs: [],
      unanswered: 0,
      wallMs: performance.now() - stepStarted,
      cpuMs: (cpu.user + cpu.system) / 1000,
      loopBlockedMs: loop.max / 1e6,
    };
    for (const p of played) {
      const where = `${name}: ${JSON.stringify(p.request)}`;
      if (p.failure) problems.push(`${where}: ${p.failure}`);
      const first = p.result?.firstResponseMs;
      if (first === undefined || first > DEADLINE_MS) figures.late++;
      // A callback after the deadline is refused (Unknown interaction): its time is in the refusal.
      const refused = (p.result?.errors ?? []).flatMap((error) => /callback came (\d+) ms/.exec(error)?.[1] ?? []).map(Number);
      const answered = first ?? (refused.length ? Math.min(...refused) : undefined);
      if (answered === undefined) figures.unanswered++;
      else figures.firstResponseMs.push(answered);
      if (p.result && first === undefined) problems.push(`${where}: no accepted answer`);
      for (const error of p.result?.errors ?? []) problems.push(`${where}: ${error}`);
      for (const response of p.result?.responses ?? []) {
        if (/went wrong|something failed/i.test(response.content ?? '')) problems.push(`${where}: an apology: ${response.content}`);
      }
    }
    interactions += played.length;
    steps.push(figures);
    return played;
  };

  const stateOf = async (game: Game): Promise<ContestState | undefined> => (await sandbox.bot.store.contests.find(sandbox.fake.guildId, Number(game.id)))?.state;

  /** Checks every playing contest; one that fails the check leaves the run (and is a problem). */
  const expectEach = async (name: string, playing: Game[], check: (state: ContestState, game: Game) => string | undefined): Promise<Game[]> => {
    const still: Game[] = [];
    for (const game of playing) {
      const state = await stateOf(game);
      const wrong = state ? check(state, game) : 'the contest is gone';
      if (wrong) problems.push(`after ${name}, contest #${game.id} (game ${game.index}): ${wrong}`);
      else still.push(game);
    }
    return still;
  };

  /** The problems without what differs between contests (ids, users, times), counted. */
  const problemKinds = (): [string, number][] => {
    const kinds = new Map<string, number>();
    for (const problem of problems) {
      const kind = problem.replace(/\{.*?\}: /, '').replace(/<token>/g, '').replace(/\d+/g, 'N').slice(0, 200);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    return [...kinds].sort((x, y) => y[1] - x[1]).slice(0, 12);
  };

  const report = (): void => {
    const late = steps.reduce((sum, step) => sum + step.late, 0);
    const all = latencyFigures(steps.flatMap((step) => step.firstResponseMs));
    console.log(
      [
        `concurrency: ${CONTESTS} contests of ${PLAYERS.length} players at once, in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
          `(load average at the start ${loadAtStart}, now ${loadavg()[0]!.toFixed(2)}, on ${availableParallelism()} cores)`,
        `  interactions ${interactions} (setup included), contests ${games.filter((g) => g.id).length}, resolved ${resolved}, tie rounds ${ties}, ` +
          `double rolls ${doubleRolls}, Agree presses that moved a contest ${moves.agree} (1 per contest expected), Ready presses that moved one ${moves.ready} (2 per round after a tie expected), late answers ${late}, ` +
          `deferred by the deadline guard ${log.deferredCount()}, warnings logged ${log.problems.filter((line) => Number(line.level) === 40).length}`,
        `  first answer (late ones included, as the fake timed them), all steps: ${formatLatency(all)}`,
        ...steps.map(
          (step) =>
            `  ${step.name}: ${step.interactions} interactions, first answer ${formatLatency(latencyFigures(step.firstResponseMs))}, ` +
            `all done in ${Math.round(step.wallMs)} ms (CPU ${(step.cpuMs / Math.max(1, step.interactions)).toFixed(1)} ms per interaction, event loop blocked up to ${Math.round(step.loopBlockedMs)} ms), late ${step.late}${step.unanswered ? ` (${step.unanswered} never answered)` : ''}`,
        ),
        ...(problems.length ? [`  problems by kind (${problems.length}):`] : []),
        ...problemKinds().map(([kind, count]) => `    ${count}× ${kind}`),
        ...problems.slice(0, 20).map((problem) => `  PROBLEM ${problem.slice(0, 1000)}`),
        ...(problems.length > 20 ? [`  … and ${problems.length - 20} more problems`] : []),
      ].join('\n'),
    );
  };

  try {
    // Sheets first, ten at a time: the setup is not what is measured, but it must keep the rules too.
    for (let from = 0; from < PLAYERS.length; from += 10) {
      await play(
        'sheet import (setup)',
        PLAYERS.slice(from, from + 10).map((user) => ({ user, command: 'sheet import', options: { file: sheetFile(`Op ${user}`, SKILLS), replace: true } })),
      );
    }

    // Two attackers for a tie, else attacker against defender one way or the other: chosen with /contest start and in the form.
    const roles = (game: Game): Record<Side, 'attacker' | 'defender'> =>
      game.tie ? { challenger: 'attacker', opponent: 'attacker' } : game.index % 2 ? { challenger: 'attacker', opponent: 'defender' } : { challenger: 'defender', opponent: 'attacker' };
    const firstSkills = new Map(games.map((game) => [game, { challenger: skillFor(game, 'challenger'), opponent: skillFor(game, 'opponent') }]));
    const starts = await play(
      '/contest start',
      games.map((game) => ({
        user: game.challenger,
        command: 'contest start',
        options: { opponent: game.opponent, intent: `Race ${game.index}`, stakes: `Stakes of race ${game.index}`, skill: firstSkills.get(game)!.challenger, role: roles(game).challenger },
      })),
    );
    let playing: Game[] = [];
    starts.forEach((p, index) => {
      const game = games[index]!;
      // The opening is the reply, or (when the bot acknowledged first, under this load) the edit of its placeholder.
      const opening = p.result?.responses.find((response) => (response.kind === 'reply' || response.kind === 'edit') && !response.ephemeral && contestIdOf(response));
      if (!opening) return void problems.push(`/contest start of game ${index}: no contest opened: ${JSON.stringify(p.result?.responses ?? p.failure).slice(0, 500)}`);
      Object.assign(game, { id: contestIdOf(opening), message: opening.messageId });
      playing.push(game);
    });
    const ids = new Set(playing.map((game) => game.id));
    if (ids.size !== playing.length) problems.push(`${playing.length} contests opened under ${ids.size} ids`);

    const button = (game: Game, user: string, verb: string, arg?: string): SandboxInteractionRequest => ({
      user,
      button: `contest:${verb}:${game.id}${arg ? `:${arg}` : ''}`,
      message: game.message!,
    });

    const forms = await play('accept', playing.map((game) => button(game, game.opponent, 'accept')));
    forms.forEach((p, index) => {
      if (!p.result?.responses.some((response) => response.kind === 'modal')) problems.push(`accept of contest #${playing[index]!.id}: no form: ${JSON.stringify(p.result?.responses).slice(0, 300)}`);
    });
    await play(
      'accept form',
      playing.map((game) => ({
        user: game.opponent,
        modal: `contest:acceptform:${game.id}`,
        fields: { stakes: `Counter-stakes of race ${game.index}`, role: roles(game).opponent, skill: firstSkills.get(game)!.opponent, archetypes: '' },
        message: game.message!,
      })),
    );
    playing = await expectEach('accept form', playing, (state, game) =>
      state.phase === 'countered' && state.challenger.role === roles(game).challenger && state.opponent.role === roles(game).opponent && state.opponent.skill?.name === firstSkills.get(game)!.opponent
        ? undefined
        : `phase ${state.phase}, roles ${state.challenger.role} / ${state.opponent.role}, skill ${state.opponent.skill?.name}`,
    );

    // Each challenger presses Agree twice at the same moment: one press rolls the dice, the other is answered privately.
    const agrees = await play('round 1: agree (each challenger twice, all at once)', playing.flatMap((game) => [button(game, game.challenger, 'agree'), button(game, game.challenger, 'agree')]));
    playing.forEach((game, index) => {
      const moved = agrees.slice(index * 2, index * 2 + 2).filter((p) => movedTheContest(p.result?.responses ?? [])).length;
      moves.agree += moved;
      if (moved !== 1) problems.push(`round 1 agree of contest #${game.id}: ${moved} presses moved it, not 1`);
    });
    playing = await expectEach('round 1 agree', playing, (state) =>
      (state.phase === 'resolved' || state.phase === 'tied') && state.rounds.length === 1 ? undefined : `phase ${state.phase} with ${state.rounds.length} rounds`,
    );

    for (let round = 1; playing.length > 0; round++) {
      if (round > 1) {
        const choices = new Map(playing.map((game) => [game, { challenger: skillFor(game, 'challenger'), opponent: skillFor(game, 'opponent') }]));
        await play(
          `round ${round}: skills (both at once)`,
          playing.flatMap((game) =>
            (['challenger', 'opponent'] as const).map((side) => ({ user: game[side], select: `contest:skill:${game.id}:${side}`, values: [choices.get(game)![side]], message: game.message! })),
          ),
        );
        playing = await expectEach(`round ${round} skills`, playing, (state, game) =>
          state.phase === 'skills' && state.challenger.skill?.name === choices.get(game)!.challenger && state.opponent.skill?.name === choices.get(game)!.opponent
            ? undefined
            : `phase ${state.phase}, skills ${state.challenger.skill?.name} / ${state.opponent.skill?.name}`,
        );

        // Each player presses Ready twice at the same moment as the other player does: four presses, one roll.
        const presses = playing.flatMap((game) => [button(game, game.challenger, 'ready'), button(game, game.opponent, 'ready'), button(game, game.challenger, 'ready'), button(game, game.opponent, 'ready')]);
        const readies = await play(`round ${round}: ready (each player twice, all at once)`, presses);
        playing.forEach((game, index) => {
          const mine = readies.slice(index * 4, index * 4 + 4);
          const moved = mine.filter((p) => movedTheContest(p.result?.responses ?? [])).length;
          moves.ready += moved;
          // One Ready per player moves the contest; the second press of each is answered privately.
          if (moved !== 2) problems.push(`round ${round} ready of contest #${game.id}: ${moved} presses moved it, not 2`);
        });
        playing = await expectEach(`round ${round} ready`, playing, (state) =>
          (state.phase === 'resolved' || state.phase === 'tied') && state.rounds.length === round ? undefined : `phase ${state.phase} with ${state.rounds.length} rounds`,
        );
      }

      const tied: Game[] = [];
      for (const game of playing) if ((await stateOf(game))?.phase === 'tied') tied.push(game);
      if (tied.length === 0) break;
      await play(`round ${round}: another round (both at once)`, tied.flatMap((game) => [button(game, game.challenger, 'again'), button(game, game.opponent, 'again')]));
      playing = await expectEach(`round ${round} another round`, tied, (state) => (state.phase === 'skills' && state.rounds.length === round ? undefined : `phase ${state.phase}, not skills`));
    }

    // ---- every contest resolved exactly once ----------------------------------------------------------------------
    const rolls = await sandbox.bot.store.db.roll.findMany({ where: { kind: 'contest' }, select: { id: true, inputs: true } });
    const rollsOf = new Map<string, string[]>();
    for (const roll of rolls) {
      const contestId = String((JSON.parse(roll.inputs) as { contestId?: number }).contestId);
      rollsOf.set(contestId, [...(rollsOf.get(contestId) ?? []), roll.id]);
    }
    // Each round's result is a new message: exactly one per round.
    const resultsOf = new Map<string, number>();
    for (const posted of sandbox.fake.messages()) {
      const id = /the dice of contest #(\d+) have rolled/.exec(posted.content)?.[1];
      if (id) resultsOf.set(id, (resultsOf.get(id) ?? 0) + 1);
    }
    for (const game of games.filter((g) => g.id)) {
      const state = await stateOf(game);
      const where = `contest #${game.id} (game ${game.index})`;
      if (!state) {
        problems.push(`${where}: gone`);
        continue;
      }
      const rounds = state.rounds;
      ties += rounds.filter((round) => round.winner === 'tie').length;
      const logged = rollsOf.get(game.id!) ?? [];
      doubleRolls += Math.max(0, logged.length - rounds.length);
      if (logged.length !== rounds.length) problems.push(`${where}: ${logged.length} contest rolls in the roll log for ${rounds.length} rounds`);
      const rollIds = rounds.map((round) => round.rollId);
      if (JSON.stringify([...rollIds].sort()) !== JSON.stringify([...logged].sort())) problems.push(`${where}: rounds show rolls ${rollIds.join(', ')}, the log has ${logged.join(', ')}`);
      if (rounds.slice(0, -1).some((round) => round.winner !== 'tie')) problems.push(`${where}: a round before the last has a winner`);
      if (state.phase !== 'resolved' || rounds.at(-1)?.winner === 'tie') {
        problems.push(`${where}: ${state.phase}, last round ${rounds.at(-1)?.winner ?? 'none'}`);
        continue;
      }
      resolved++;
      const posted = resultsOf.get(game.id!) ?? 0;
      if (posted !== rounds.length) problems.push(`${where}: ${posted} result messages posted for ${rounds.length} rounds`);
      const message = sandbox.fake.message(game.message!);
      const embed = (message?.embeds[0] ?? {}) as { description?: string; footer?: { text?: string } };
      // A winner (🏆), or both failed against a defender and nothing changes (🚫).
      const results = (embed.description ?? '').split(/🏆|🚫/u).length - 1;
      if (results !== 1) problems.push(`${where}: the message shows ${results} results: ${String(embed.description).slice(0, 300)}`);
      if (!rollIds.every((id) => embed.footer?.text?.includes(String(id)))) problems.push(`${where}: the footer does not list rolls ${rollIds.join(', ')}: ${embed.footer?.text}`);
      if ((message?.components ?? []).length) problems.push(`${where}: a resolved contest still shows buttons`);
    }
    const orphanRolls = rolls.filter((roll) => !games.some((game) => game.id === String((JSON.parse(roll.inputs) as { contestId?: number }).contestId)));
    if (orphanRolls.length) problems.push(`${orphanRolls.length} contest rolls for contests nobody played`);
  } finally {
    // The figures, whatever happened: a run that broke off halfway still says how far and how fast it got.
    problems.push(...sandbox.fake.violations.map((violation) => `violation: ${violation}`));
    problems.push(...log.problems.filter((line) => Number(line.level) >= 50).map((line) => `error logged: ${JSON.stringify(line).slice(0, 2000)}`));
    report();
    await sandbox.stop();
  }
  expect(resolved).toBe(CONTESTS);
  expect(doubleRolls).toBe(0);
  expect(steps.reduce((sum, step) => sum + step.late, 0)).toBe(0);
  expect(problems).toEqual([]);
}, 10 * 60_000);
