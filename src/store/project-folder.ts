import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | null = null;

/**
 * The folder with package.json and prisma/ (the migrations both databases apply): two up from here in the sources,
 * three in the built dist/. Found on first use, not at import.
 */
export function projectFolder(): string {
  if (found) return found;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(folder, 'prisma', 'schema.prisma'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('cannot find the project folder (with prisma/schema.prisma) above the code');
    folder = parent;
  }
  found = folder;
  return folder;
}
