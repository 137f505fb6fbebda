import { describe, expect, it } from 'vitest';
import { frameAt, parseStoryboard } from './storyboard.ts';

const VTT_URL = 'https://tao.example.org/api/media/7/s/1767225600/abc/storyboard.vtt';
const VTT = `WEBVTT

1
00:00:00.000 --> 00:00:05.000
storyboard.jpg#xywh=0,0,160,90

00:00:05.000 --> 00:00:10.000
storyboard.jpg#xywh=160,0,160,90

00:01:00.500 --> 01:00:10.000 align:start
storyboard.jpg#xywh=0,90,160,90

00:00:10.000 --> 00:00:15.000
storyboard.jpg

00:00:20.000 --> 00:00:25.000
storyboard.jpg#xywh=1,2,x,4
`;

describe('the storyboard WebVTT', () => {
  it('reads each cue as a region of the sprite, resolved beside the VTT (R-VID-15)', () => {
    const frames = parseStoryboard(VTT, VTT_URL);
    expect(frames).toEqual([
      { start: 0, end: 5, image: 'https://tao.example.org/api/media/7/s/1767225600/abc/storyboard.jpg', x: 0, y: 0, width: 160, height: 90 },
      { start: 5, end: 10, image: 'https://tao.example.org/api/media/7/s/1767225600/abc/storyboard.jpg', x: 160, y: 0, width: 160, height: 90 },
      { start: 60.5, end: 3610, image: 'https://tao.example.org/api/media/7/s/1767225600/abc/storyboard.jpg', x: 0, y: 90, width: 160, height: 90 },
    ]);
  });

  it('finds the frame shown at a time (R-VID-15)', () => {
    const frames = parseStoryboard(VTT, VTT_URL);
    expect(frameAt(frames, 7)?.x).toBe(160);
    expect(frameAt(frames, 0)?.x).toBe(0);
    expect(frameAt(frames, 61)?.y).toBe(90);
    expect(frameAt([], 3)).toBeNull();
  });

  it('reads CRLF files and refuses what is not a storyboard (R-VID-15)', () => {
    expect(parseStoryboard(VTT.replace(/\n/g, '\r\n'), VTT_URL)).toHaveLength(3);
    expect(parseStoryboard('not a vtt', VTT_URL)).toEqual([]);
  });
});
