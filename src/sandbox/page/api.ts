// The sandbox JSON API as the page uses it (docs/sandbox.md), and the shapes of what it returns.

export interface Attachment {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  url: string;
}

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface Embed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  author?: { name: string; url?: string; icon_url?: string };
  footer?: { text: string; icon_url?: string };
  fields?: EmbedField[];
  thumbnail?: { url: string };
  image?: { url: string };
}

export interface SelectOption {
  label: string;
  value: string;
  description?: string;
  emoji?: { name?: string; id?: string };
  default?: boolean;
}

/** Any message or modal component (action rows, buttons, selects, text inputs, labels, text displays). */
export interface Component {
  type: number;
  custom_id?: string;
  style?: number;
  label?: string;
  description?: string;
  emoji?: { name?: string; id?: string };
  url?: string;
  disabled?: boolean;
  placeholder?: string;
  options?: SelectOption[];
  min_values?: number;
  max_values?: number;
  components?: Component[];
  component?: Component;
  content?: string;
  value?: string;
  required?: boolean;
  min_length?: number;
  max_length?: number;
}

export interface Message {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  embeds: Embed[];
  components: Component[];
  flags: number;
  ephemeral: boolean;
  interactionId?: string;
  interaction?: { type: number; userId: string; username: string; command?: string; contextMenu?: true };
  /** Posted through a channel webhook under another name (an NPC's), with its picture if it has one. */
  webhook?: { id: string; username: string; avatarUrl?: string };
  attachments: Attachment[];
  editedAt?: string;
  createdAt: string;
}

export interface Choice {
  name: string;
  value: string | number;
}

export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: Choice[];
  options?: CommandOption[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

export interface Command {
  name: string;
  description: string;
  type?: number;
  options?: CommandOption[];
}

export interface Modal {
  custom_id: string;
  title: string;
  components: Component[];
}

export interface SandboxResponse {
  kind: string;
  ephemeral: boolean;
  messageId?: string;
  choices?: Choice[];
  modal?: Modal;
}

export interface InteractionResult {
  id: string;
  responses: SandboxResponse[];
  errors: string[];
}

export interface User {
  id: string;
  username: string;
  bot: boolean;
}

export interface ServerInfo {
  guild: { id: string; name: string };
  channel: { id: string; name: string };
  bot: User;
  roles: Array<{ id: string; name: string }>;
}

/** Someone the page can play as. */
export interface Player {
  name: string;
  dispatcher: boolean;
  manageServer: boolean;
}

/** A file for an attachment option, as the sandbox takes it. */
export interface UploadedFile {
  filename: string;
  base64: string;
  contentType?: string;
}

export class ApiError extends Error {}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(body.error ?? `HTTP ${response.status}`);
  return body as T;
}

export async function get<T>(path: string): Promise<T> {
  return json<T>(await fetch(path, { headers: { accept: 'application/json' } }));
}

/** POST /api/interactions as the player: their name, the Dispatcher role and Manage Server if they have them. */
export async function interact(player: Player, request: Record<string, unknown>): Promise<InteractionResult> {
  const body = {
    user: player.name,
    ...(player.dispatcher ? { roles: ['Dispatcher'] } : {}),
    ...(player.manageServer ? { permissions: ['ManageGuild'] } : {}),
    ...request,
  };
  const response = await fetch('/api/interactions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return json<InteractionResult>(response);
}
