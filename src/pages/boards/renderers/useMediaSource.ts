// What an image or video component loads: a file stored with the board (/board-media/…) is read
// with the session and shown from a local object URL; any other allowed URL is loaded as it is.
import { boardMediaIdOf } from '../../../schemas/boardMedia.ts';
import { useSessionFile } from '../../../providers/useSessionFile.ts';

/** `src` once it can be shown; `failed` when the stored file cannot be read (gone, or no longer shared). */
export function useMediaSource(url: string): { src?: string; failed: boolean } {
  const stored = boardMediaIdOf(url) !== undefined;
  const file = useSessionFile(stored ? url : undefined);
  return stored ? file : { src: url, failed: false };
}
