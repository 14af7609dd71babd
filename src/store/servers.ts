/** Per-server settings. A server that never changed anything gets the defaults. */
import type { Database } from './database.js';

export interface ServerSettings {
  guildId: string;
  dispatcherRoleId: string | null;
  contestTimeoutMinutes: number;
  contestAddsOwnSkill: boolean;
  defaultSystem: string;
}

export class ServerStore {
  constructor(private readonly db: Database) {}

  async settings(guildId: string): Promise<ServerSettings> {
    const row = await this.db.server.findUnique({ where: { guildId } });
    return (
      row ?? { guildId, dispatcherRoleId: null, contestTimeoutMinutes: 15, contestAddsOwnSkill: false, defaultSystem: 'tactalk' }
    );
  }

  async update(guildId: string, changes: Partial<Omit<ServerSettings, 'guildId'>>): Promise<ServerSettings> {
    return this.db.server.upsert({ where: { guildId }, create: { guildId, ...changes }, update: changes });
  }
}
