import { describe, expect, it } from 'vitest';
import { chooseFeeds, parsePublishers, wantedStreams, type Publisher } from './feeds.ts';

const publisher = (id: string, display: string, videoCodec = 'vp8'): Publisher => ({
  id,
  display,
  streams: [
    { type: 'audio', mid: '0', codec: 'opus', disabled: false },
    { type: 'video', mid: '1', codec: videoCodec, disabled: false },
  ],
});

describe('parsePublishers', () => {
  it('reads the videoroom list and drops what is not a publisher', () => {
    const parsed = parsePublishers([
      {
        id: 'a1',
        display: 'agent',
        streams: [
          { type: 'audio', mindex: 0, mid: '0', codec: 'opus' },
          { type: 'video', mindex: 1, mid: '1', codec: 'vp8', disabled: true },
          { type: 'weird', mid: '2' },
        ],
      },
      { display: 'no id' },
      'nonsense',
    ]);
    expect(parsed).toEqual([
      {
        id: 'a1',
        display: 'agent',
        streams: [
          { type: 'audio', mid: '0', codec: 'opus', disabled: false },
          { type: 'video', mid: '1', codec: 'vp8', disabled: true },
        ],
      },
    ]);
    expect(parsePublishers(undefined)).toEqual([]);
  });
});

describe('chooseFeeds (spec §5: a feed whose peer is present is ignored)', () => {
  it('skips our own display and keeps one feed per peer', () => {
    const chosen = chooseFeeds(
      [publisher('1', 'agent'), publisher('2', 'guest'), publisher('3', 'agent')],
      'guest',
      new Set(['1']),
    );
    expect(chosen.map((p) => p.id)).toEqual(['1']);
  });

  it('lets a re-published feed replace a peer whose old feed has no live media', () => {
    const chosen = chooseFeeds(
      [publisher('1', 'agent'), publisher('3', 'agent')],
      'guest',
      new Set(),
    );
    expect(chosen.map((p) => p.id)).toEqual(['3']);
  });
});

describe('wantedStreams (spec §5: VP8/VP9 skipped for Safari)', () => {
  const everywhere = { safari: false, vp8: false, vp9: false };
  it('takes audio and video, not disabled streams', () => {
    const p: Publisher = {
      ...publisher('1', 'a'),
      streams: [...publisher('1', 'a').streams, { type: 'video', mid: '2', disabled: true }],
    };
    expect(wantedStreams(p, everywhere).map((s) => s.mid)).toEqual(['0', '1']);
  });

  it('skips VP8 and VP9 video on a Safari that cannot decode them, never H.264', () => {
    const safari = { safari: true, vp8: false, vp9: false };
    expect(wantedStreams(publisher('1', 'a', 'vp8'), safari).map((s) => s.mid)).toEqual(['0']);
    expect(wantedStreams(publisher('1', 'a', 'vp9'), safari).map((s) => s.mid)).toEqual(['0']);
    expect(wantedStreams(publisher('1', 'a', 'h264'), safari).map((s) => s.mid)).toEqual([
      '0',
      '1',
    ]);
    expect(
      wantedStreams(publisher('1', 'a', 'vp8'), { ...safari, vp8: true }).map((s) => s.mid),
    ).toEqual(['0', '1']);
  });
});
