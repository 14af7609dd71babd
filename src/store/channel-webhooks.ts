/**
 * The webhook each channel's NPCs speak through (`/npc say`, rolls made `as_npc`): made once per channel and reused,
 * so a channel never fills up with the bot's webhooks. The token is a password for posting in the channel: it is kept
 * here and nowhere else, never logged.
 */
import type { Database } from './database-client.js';

export interface ChannelWebhook {
  channelId: string;
  guildId: string;
  webhookId: string;
  token: string;
}

export class ChannelWebhookStore {
  constructor(private readonly db: Database) {}

  /** The webhook kept for a channel of this server; null when none is (or it was kept for another server). */
  async get(guildId: string, channelId: string): Promise<ChannelWebhook | null> {
    const row = await this.db.channelWebhook.findUnique({ where: { channelId } });
    if (!row || row.guildId !== guildId) return null;
    return { channelId: row.channelId, guildId: row.guildId, webhookId: row.webhookId, token: row.token };
  }

  /** Keeps a channel's webhook, replacing the one kept before (a webhook someone deleted, then made anew). */
  async save(webhook: ChannelWebhook): Promise<void> {
    const { channelId, ...rest } = webhook;
    await this.db.channelWebhook.upsert({ where: { channelId }, create: webhook, update: rest });
  }

  /** Forgets a channel's webhook, only if it is still the one named: another process may have replaced it already. */
  async forget(channelId: string, webhookId: string): Promise<void> {
    await this.db.channelWebhook.deleteMany({ where: { channelId, webhookId } });
  }
}
