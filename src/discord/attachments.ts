/** Reads a file a user attached to a command, with a size limit and a time limit. */
import type { Attachment } from 'discord.js';
import { UserError } from '../errors.js';

/** `formatHint` tells the user where to see the expected format when the file is not text. */
export async function readAttachmentText(
  attachment: Attachment,
  maxBytes: number,
  formatHint = 'Export a sheet with `/sheet export` to see the expected format.',
): Promise<string> {
  if (attachment.size > maxBytes) {
    throw new UserError(`The file **${attachment.name}** is ${Math.ceil(attachment.size / 1000)} kB; the most accepted is ${Math.floor(maxBytes / 1000)} kB. Nothing was changed.`);
  }
  let response: Response;
  try {
    response = await fetch(attachment.url, { signal: AbortSignal.timeout(5000) });
  } catch {
    throw new UserError('Discord did not hand over the attached file in time. Please try again. Nothing was changed.');
  }
  if (!response.ok) throw new UserError(`Discord could not give the attached file (HTTP ${response.status}). Please try again. Nothing was changed.`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw new UserError(`The file is larger than ${Math.floor(maxBytes / 1000)} kB. Nothing was changed.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`The file is not UTF-8 text. ${formatHint} Nothing was changed.`);
  }
}
