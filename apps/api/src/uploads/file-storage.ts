import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** How many first bytes of a received file are kept for sniffing its type. */
export const HEAD_BYTES = 64 * 1024;

/** A file received but not yet kept: nobody can open it until `keep` names it. */
export interface IncomingFile {
  size: number;
  /** Its first {@link HEAD_BYTES} bytes (all of it when smaller). */
  head: Uint8Array;
  /** Makes it readable under `key`; fails rather than replace an existing file. */
  keep(key: string): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Where uploaded files live, by a key the API generates. The local disk is the default; an
 * S3-compatible store is the production option behind the same interface (docs/architecture.md,
 * "Files").
 */
export interface FileStorage {
  /** Streams `content` aside (never into memory whole) and answers what it received. */
  receive(content: Readable): Promise<IncomingFile>;
  /** Rejects when there is no such file. */
  open(key: string): Promise<Readable>;
  /** Deletes the file; a file already gone is no error (retention, decision 0031). */
  remove(key: string): Promise<void>;
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

  async receive(content: Readable): Promise<IncomingFile> {
    const folder = join(this.root, 'incoming');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const partial = join(folder, randomBytes(12).toString('base64url'));
    let size = 0;
    const chunks: Buffer[] = [];
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (size < HEAD_BYTES) chunks.push(chunk.subarray(0, HEAD_BYTES - size));
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(content, measure, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw error;
    }
    const discard = () => unlink(partial).catch(() => undefined);
    return {
      size,
      head: Buffer.concat(chunks),
      keep: async (key) => {
        const { folder: target, path } = this.pathOf(key);
        await mkdir(target, { recursive: true, mode: 0o700 });
        // Linked into place (unlike renaming, linking fails rather than replace a file), so a
        // reader never sees half a file.
        try {
          await link(partial, path);
        } finally {
          await discard();
        }
      },
      discard,
    };
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

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key).path, { force: true });
  }
}
