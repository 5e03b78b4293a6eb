import { createReadStream } from 'node:fs';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live, by a key the API generates. The local disk is the default; an
 * S3-compatible store is the production option behind the same interface (ARCHITECTURE "Files").
 */
export interface FileStorage {
  save(key: string, content: Uint8Array): Promise<void>;
  /** Rejects when there is no such file. */
  open(key: string): Promise<Readable>;
}

/** SECURITY: keys become paths, so only generated ones (base64url) are accepted. */
const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** Files under `root`, spread over sub-folders by the first two characters of the key. */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): { folder: string; path: string } {
    if (!KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
    const folder = join(this.root, key.slice(0, 2));
    return { folder, path: join(folder, key) };
  }

  async save(key: string, content: Uint8Array): Promise<void> {
    const { folder, path } = this.pathOf(key);
    await mkdir(folder, { recursive: true });
    // Written aside, then linked into place: a reader never sees half a file, and linking (unlike
    // renaming) fails rather than replace an existing one.
    const partial = `${path}.partial`;
    await writeFile(partial, content, { flag: 'wx' });
    try {
      await link(partial, path);
    } finally {
      await unlink(partial);
    }
  }

  async open(key: string): Promise<Readable> {
    const { path } = this.pathOf(key);
    const stream = createReadStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }
}
