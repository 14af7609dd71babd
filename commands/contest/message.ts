/** The contest's one message as the stored contest and the server's settings draw it. */
import type { BaseInteraction } from 'discord.js';
import type { BotServices } from '../../src/discord/command.js';
import type { ContestSideName, ContestState } from '../../src/engine/systems/tactalk/contest.js';
import type { StoredContest } from '../../src/store/contests.js';
import type { ServerSettings } from '../../src/store/servers.js';
import type { ContestView } from '../../src/views/contest/view.js';

/** When the step a move leads to runs out, by the server's contest timeout. */
export function expiryFrom(now: Date, settings: ServerSettings): Date {
  return new Date(now.getTime() + settings.contestTimeoutMinutes * 60_000);
}

/** The acting member as the server names them. */
export function memberName(interaction: BaseInteraction): string {
  if (interaction.inCachedGuild()) return interaction.member.displayName;
  return interaction.user.globalName ?? interaction.user.username;
}

export function viewOf(contest: StoredContest, settings: ServerSettings, skills?: ContestView['skills']): ContestView {
  return {
    id: contest.id,
    state: contest.state,
    expiresAt: contest.expiresAt,
    timeoutMinutes: settings.contestTimeoutMinutes,
    skills,
    where: { guildId: contest.guildId, channelId: contest.channelId, messageId: contest.messageId },
  };
}

/** Both sides' skills, for the skill menus (also shown, disabled, on a contest that expired while picking). */
export async function sideSkills(context: BotServices, guildId: string, state: ContestState): Promise<ContestView['skills']> {
  if ((state.phase === 'expired' ? state.expiredAt : state.phase) !== 'skills') return undefined;
  const load = async (side: ContestSideName) => (state[side].operator ? ((await context.store.operators.get(guildId, state[side].operator.id))?.skills ?? []) : []);
  return { challenger: await load('challenger'), opponent: await load('opponent') };
}

/** The contest drawn as stored, with the sheets' skills its menus need. */
export async function drawn(context: BotServices, contest: StoredContest, settings: ServerSettings): Promise<ContestView> {
  return viewOf(contest, settings, await sideSkills(context, contest.guildId, contest.state));
}
