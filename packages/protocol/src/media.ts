import { z } from 'zod';

/** spec §4: the media set-up stages, each recorded as a success or a failure. */
export const mediaSetupStageSchema = z.enum([
  'createRoom',
  'joinRoom',
  'createOffer',
  'createAnswer',
  'localStream',
  'remoteStream',
]);
export type MediaSetupStage = z.infer<typeof mediaSetupStageSchema>;

/** Stage → `true` (succeeded) or `false` (failed); a stage not reached yet is absent. */
export const mediaSetupStagesSchema = z.partialRecord(mediaSetupStageSchema, z.boolean());
export type MediaSetupStages = z.infer<typeof mediaSetupStagesSchema>;

/** spec §4: for non-p2p calls every stage must have succeeded, otherwise a call bug is reported. */
export function setupComplete(stages: MediaSetupStages): boolean {
  return mediaSetupStageSchema.options.every((stage) => stages[stage] === true);
}

/** spec §3: `peerCall` and `peerVideo` are Resumed or Paused. */
export const peerCallStateSchema = z.enum(['Resumed', 'Paused']);
export type PeerCallState = z.infer<typeof peerCallStateSchema>;

/** spec §3 "Call status": a peer of the call (peerJID and picture come from chat presence). */
export const callPeerSchema = z.object({
  peerJID: z.string(),
  janusId: z.string(),
  profileImageUrl: z.string().nullable(),
  username: z.string(),
});
export type CallPeer = z.infer<typeof callPeerSchema>;

/**
 * A remote publisher as the media layer sees it (spec §3 "Media feed" without the live
 * stream, which stays in the adapter): `display` is the publisher's username.
 */
export const remoteFeedSchema = z.object({
  janusId: z.string(),
  display: z.string(),
  onlyAudio: z.boolean(),
  audioMuted: z.boolean(),
  videoMuted: z.boolean(),
});
export type RemoteFeed = z.infer<typeof remoteFeedSchema>;

/** spec §3: which streams are ready to show. */
export const streamsReadySchema = z.object({ local: z.boolean(), remote: z.boolean() });
export type StreamsReady = z.infer<typeof streamsReadySchema>;

/** The kind of call a company offers (spec §3 callType without `userSelect`, which is a choice). */
export const mediaCallTypeSchema = z.enum(['video', 'voice']);
export type MediaCallType = z.infer<typeof mediaCallTypeSchema>;

/** spec §9: video presets and their sizes. */
export const VIDEO_PRESETS = {
  lowres: { width: 320, height: 240 },
  'lowres-16:9': { width: 320, height: 180 },
  stdres: { width: 640, height: 480 },
  'stdres-16:9': { width: 640, height: 360 },
  hires: { width: 1280, height: 720 },
  hdres: { width: 1280, height: 720 },
  fhdres: { width: 1920, height: 1080 },
  '4kres': { width: 3840, height: 2160 },
} as const satisfies Record<string, { width: number; height: number }>;
export const videoPresetSchema = z.enum(
  Object.keys(VIDEO_PRESETS) as [keyof typeof VIDEO_PRESETS, ...(keyof typeof VIDEO_PRESETS)[]],
);
export type VideoPreset = z.infer<typeof videoPresetSchema>;

/** Live quality of one direction of a call, for the UI. */
export const qualityLevelSchema = z.enum(['good', 'fair', 'poor']);
export type QualityLevel = z.infer<typeof qualityLevelSchema>;
export const linkQualitySchema = z.object({
  /** Media bitrate over the last sampling window. */
  kbps: z.number().nonnegative(),
  /** Packets lost over the window, in percent of packets expected. */
  lossPercent: z.number().min(0).max(100),
  /** Round-trip time to Janus; null until measured. */
  rttMs: z.number().nonnegative().nullable(),
  level: qualityLevelSchema,
});
export type LinkQuality = z.infer<typeof linkQualitySchema>;

/** A participant's role in a call: whose recording a file is, whose room token. */
export const recordingRoleSchema = z.enum(['guest', 'agent']);
export type RecordingRole = z.infer<typeof recordingRoleSchema>;

/**
 * The media part of spec §3 "Call status": what the store keeps, derived from the media
 * session and the chat's directory of peers (peerJID, picture).
 */
export const callMediaStatusSchema = z.object({
  peerCall: peerCallStateSchema,
  peerVideo: peerCallStateSchema,
  onHoldCount: z.number().int().nonnegative(),
  peers: z.array(callPeerSchema),
  mutedAudioJIDs: z.array(z.string()),
  mutedVideoJIDs: z.array(z.string()),
  streamsReady: streamsReadySchema,
});
export type CallMediaStatus = z.infer<typeof callMediaStatusSchema>;
