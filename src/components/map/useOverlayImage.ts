// A region's overlay image as a local object URL: fetched through the API client (it carries the
// session and refreshes it), so the map loads it without credentials of its own.
import { useEffect, useState } from 'react';
import { httpRequest } from '../../providers/httpClient.ts';

export function useOverlayImage(url: string | undefined): { src?: string; failed: boolean } {
  const [state, setState] = useState<{ src?: string; failed: boolean }>({ failed: false });
  useEffect(() => {
    if (!url) return setState({ failed: false });
    let objectUrl: string | undefined;
    let cancelled = false;
    httpRequest<Blob>({ path: url, blob: true }).then((blob) => {
      if (cancelled) return;
      objectUrl = URL.createObjectURL(blob);
      setState({ src: objectUrl, failed: false });
    }, () => { if (!cancelled) setState({ failed: true }); });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state;
}
