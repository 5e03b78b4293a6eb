// The operator's certificate files, as Caddy and coturn get them: copies of their own, taken
// again when the originals are renewed (docs/operations.md, "Certificate renewal").
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { chmod, chown, copyFile, readFile, rename } from 'node:fs/promises';

/** A certificate chain and its private key, as PEM files. */
export type CertificateFiles = { readonly certFile: string; readonly keyFile: string };

/**
 * Copies `from` to `to`, owner-only and owned by `owner` (the server's user) when given. Each
 * copy is written beside its target and renamed over it, so a server that reloads meanwhile
 * reads the old file or the new one, never half of one.
 */
export async function copyCertificate(
  from: CertificateFiles,
  to: CertificateFiles,
  owner?: { uid: number; gid: number },
): Promise<void> {
  for (const [source, target] of [
    [from.certFile, to.certFile],
    [from.keyFile, to.keyFile],
  ] as const) {
    const next = `${target}.next`;
    await copyFile(source, next);
    await chmod(next, 0o600);
    if (owner) await chown(next, owner.uid, owner.gid);
    await rename(next, target);
  }
}

/**
 * Why a certificate and key cannot be served together (unreadable, not PEM, not a pair), or
 * undefined when they can: a renewal caught between its two files must wait for the second.
 */
export async function certificatePairProblem(files: CertificateFiles): Promise<string | undefined> {
  try {
    const certificate = new X509Certificate(await readFile(files.certFile));
    const key = createPrivateKey(await readFile(files.keyFile));
    return certificate.checkPrivateKey(key) ? undefined : `${files.keyFile} is not its key`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A digest of both files' contents; undefined while one cannot be read (mid-renewal). */
export async function certificateFingerprint(files: CertificateFiles): Promise<string | undefined> {
  try {
    const hash = createHash('sha256');
    for (const file of [files.certFile, files.keyFile]) hash.update(await readFile(file));
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Calls `onRenewed` each time the contents of `files` differ from the last seen, first from
 * `served` (their {@link certificateFingerprint} when the server copied them: taken before, a
 * renewal during the start is not missed), checking every `intervalMs`.
 * Contents, not modification times or file events: certbot renews by pointing the `live/`
 * symbolic links at new files, which the names still lead to. `onRenewed` reports its own
 * failures (a rejection is dropped: it must not end the supervisor). Returns the stop.
 */
export function watchCertificate(
  files: CertificateFiles,
  served: string | undefined,
  intervalMs: number,
  onRenewed: () => Promise<void>,
): () => void {
  let known = served;
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void (async () => {
      const now = await certificateFingerprint(files);
      if (now !== undefined && now !== known) {
        known = now;
        await onRenewed();
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
