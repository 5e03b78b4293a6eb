/**
 * What Janus names a recording of a call room (decision 0008): it records the room itself and
 * builds `videoroom-<room>-user-<publisher id>-<time>-<kind>-<index>.mjr`, where the room is
 * the call id and the publisher id (`<role>-<32 hex>`) is the API's gate's, never a browser's.
 */
const JANUS_RECORDING = /^(guest|agent)-[0-9a-f]{32}-\d+-(audio|video)-\d+\.mjr$/;

/**
 * The .mjr files of one call, per role, the guest's first (its tile comes first). A participant
 * that joined again (a recovery, a restarted Janus) has a new publisher id and later files:
 * they stay on its role's tile, each placed at its own time by the merge.
 */
export function callRecordingParts(files: readonly string[], callId: string): string[][] {
  const prefix = `videoroom-${callId}-user-`;
  const byRole = { guest: [] as string[], agent: [] as string[] };
  for (const name of [...files].sort()) {
    if (!name.startsWith(prefix)) continue;
    const role = JANUS_RECORDING.exec(name.slice(prefix.length))?.[1];
    if (role === 'guest' || role === 'agent') byRole[role].push(name);
  }
  return [byRole.guest, byRole.agent].filter((names) => names.length > 0);
}
