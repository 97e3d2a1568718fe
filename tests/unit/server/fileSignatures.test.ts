import { describe, expect, it } from 'vitest';
import { imageTypeOf, videoTypeOf } from '../../../server/services/fileSignatures.ts';

describe('imageTypeOf', () => {
  it('knows PNG, JPEG and WebP by their first bytes', () => {
    expect(imageTypeOf(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
  });

  it('refuses anything else, whatever it is called: SVG, GIF, a RIFF that is not WebP, text, nothing', () => {
    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), Buffer.from('GIF89a'), Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE')]),
      Buffer.from('89504e47', 'hex'), Buffer.from('hello'), Buffer.alloc(0),
    ]) expect(imageTypeOf(bytes), bytes.toString('latin1')).toBeUndefined();
  });
});

describe('videoTypeOf', () => {
  it('knows MP4 by its ftyp box and WebM by its EBML header', () => {
    expect(videoTypeOf(Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypisom')]))).toBe('video/mp4');
    expect(videoTypeOf(Buffer.from('1a45dfa39f4282847765626d', 'hex'))).toBe('video/webm');
  });

  it('refuses images, HTML and truncated headers', () => {
    for (const bytes of [
      Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('<html><script>alert(1)</script>'), Buffer.from('0000ftyp'.slice(0, 6)), Buffer.from('1a45df', 'hex'), Buffer.alloc(0),
    ]) expect(videoTypeOf(bytes), bytes.toString('latin1')).toBeUndefined();
  });
});
