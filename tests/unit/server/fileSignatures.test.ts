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
  /** A first box `ftyp` of `size` bytes with these brands, then a little of the next box. */
  const ftyp = (major: string, compatible: string[], size = 16 + compatible.length * 4) => {
    const box = Buffer.alloc(16 + compatible.length * 4);
    box.writeUInt32BE(size, 0);
    box.write(`ftyp${major}`, 4, 'latin1');
    compatible.forEach((brand, n) => box.write(brand, 16 + n * 4, 'latin1'));
    return Buffer.concat([box, Buffer.from('00000008free', 'hex')]);
  };

  it('knows MP4 by a well-formed ftyp box of an MP4 brand, and WebM by its EBML header', () => {
    expect(videoTypeOf(ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']))).toBe('video/mp4');
    expect(videoTypeOf(ftyp('mp42', []))).toBe('video/mp4');
    expect(videoTypeOf(ftyp('XAVC', ['mp42']))).toBe('video/mp4'); // a camera's own major brand, an MP4 compatible one
    expect(videoTypeOf(Buffer.from('1a45dfa39f4282847765626d', 'hex'))).toBe('video/webm');
  });

  it('refuses images, HTML and truncated headers', () => {
    for (const bytes of [
      Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('<html><script>alert(1)</script>'), Buffer.from('0000ftyp'.slice(0, 6)), Buffer.from('1a45df', 'hex'), Buffer.alloc(0),
    ]) expect(videoTypeOf(bytes), bytes.toString('latin1')).toBeUndefined();
  });

  it('refuses HTML that puts ftyp at bytes 4-7, and ftyp boxes that are not an MP4\'s or do not fit', () => {
    for (const bytes of [
      Buffer.from('<!--ftyp--><html><script>alert(1)</script></html>'),
      ftyp('heic', ['mif1', 'heic']), // an image
      ftyp('qt  ', []),
      ftyp('isom', ['mp41'], 4_096), // larger than the file
      ftyp('isom', ['mp41'], 18), // brands cut in half
      ftyp('isom', ['mp41'], 8), // shorter than its own header
    ]) expect(videoTypeOf(bytes), bytes.toString('latin1').slice(0, 24)).toBeUndefined();
  });
});
