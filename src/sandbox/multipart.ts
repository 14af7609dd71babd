// A small multipart/form-data parser, enough for what @discordjs/rest sends: a `payload_json` part plus one
// part per file (`files[0]`, `files[1]`, …), each with a filename and a content type. Written here so the fake
// needs no extra dependency; it reads a fully buffered body (request bodies are small and local).

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {}

/** The boundary parameter of a multipart/form-data content type, or undefined if it is not multipart. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? '').trim() : undefined;
}

export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw new MultipartError('multipart body without its boundary');
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) break;
    if (body[position] === 0x0d && body[position + 1] === 0x0a) position += 2;
    const next = body.indexOf(delimiter, position);
    if (next < 0) throw new MultipartError('multipart body is not terminated');
    // The part's content ends with the CRLF that precedes the next delimiter.
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    parts.push(parsePart(body.subarray(position, end)));
    position = next;
  }
  return parts;
}

function parsePart(raw: Buffer): MultipartPart {
  const headerEnd = raw.indexOf('\r\n\r\n');
  if (headerEnd < 0) throw new MultipartError('multipart part without headers');
  const headers = raw.subarray(0, headerEnd).toString('utf8').split('\r\n');
  const data = raw.subarray(headerEnd + 4);
  let name: string | undefined;
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of headers) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-type') contentType = value;
    if (key === 'content-disposition') {
      name = dispositionParam(value, 'name');
      const extended = /filename\*=(?:utf-8|UTF-8)''([^;]+)/.exec(value);
      filename = extended ? decodeURIComponent(extended[1] ?? '') : dispositionParam(value, 'filename');
    }
  }
  if (name === undefined) throw new MultipartError('multipart part without a name');
  return { name, filename, contentType, data: Buffer.from(data) };
}

/** A quoted or bare parameter of a Content-Disposition header (`name="files[0]"`). */
function dispositionParam(header: string, param: string): string | undefined {
  const quoted = new RegExp(`(?:^|;)\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  if (quoted) {
    // FormData implementations escape quotes and newlines as %22, %0A, %0D; undo those and backslash escapes.
    return (quoted[1] ?? '')
      .replace(/\\(.)/g, '$1')
      .replace(/%22/g, '"')
      .replace(/%0A/gi, '\n')
      .replace(/%0D/gi, '\r');
  }
  const bare = new RegExp(`(?:^|;)\\s*${param}=([^;]*)`, 'i').exec(header);
  return bare ? (bare[1] ?? '').trim() : undefined;
}
