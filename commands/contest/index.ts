/**
 * /contest: a contest between two players' Operators (RULES 1.6), run on one message as a consent flow with
 * buttons. Every press reloads the contest, lets the engine decide, and saves with a compare-and-set: a press
 * that lost a race, came late or came from the wrong person changes nothing and is answered privately.
 * `start.ts` opens a contest, `press.ts` moves it, `forms.ts` reads its forms, `announce.ts` posts what a move did,
 * `sweep.ts` expires the contests nobody moved.
 */
import { defineCommand } from '../../src/discord/command.js';
import { contestIds, opensForm, type ContestControl } from '../../src/views/contest/ids.js';
import { press } from './press.js';
import { autocomplete, start } from './start.js';
import { startSweeper } from './sweep.js';

export { sweepContestsNow } from './sweep.js';

// The contest settings (timeout, the house rule adds_own_skill) are set with /config, by members with Manage Server.
export const contestCommand = defineCommand<ContestControl>({
  name: 'contest',
  description: 'Contests between two players’ Operators',
  systems: ['tactalk'],
  subcommands: [
    {
      name: 'start',
      build: (sub) =>
        sub
          .setDescription('Challenge another player to a contest')
          .addUserOption((o) => o.setName('opponent').setDescription('The player you act against').setRequired(true))
          .addStringOption((o) => o.setName('intent').setDescription('What your Operator tries to do').setRequired(true))
          .addStringOption((o) => o.setName('stakes').setDescription('What happens to them if you win').setRequired(true))
          .addStringOption((o) => o.setName('skill').setDescription('Your skill (its aptitude is their Challenge Level)').setRequired(true).setAutocomplete(true))
          .addStringOption((o) =>
            o
              .setName('role')
              .setDescription('Attacker or Defender: secret until the dice roll')
              .setRequired(true)
              .addChoices({ name: 'Attacker', value: 'attacker' }, { name: 'Defender', value: 'defender' }),
          )
          .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers you add, comma separated (each once)').setAutocomplete(true)),
      run: start,
      autocomplete,
      help: { audience: 'player', example: '/contest start opponent:@Sasha intent:grab the keys first stakes:Kat walks home skill:Athletics role:attacker' },
    },
  ],
  ids: contestIds,
  component: press,
  mayOpenForm: opensForm,
  start: startSweeper,
});
