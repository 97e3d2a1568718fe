// A region's overlay image as a local object URL: read through the data provider (it carries the
// session and refreshes it), so the map loads it without credentials of its own.
import { useCustom } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { blobAnswerMeta } from '../../providers/dataProvider.ts';

export function useOverlayImage(url: string | undefined): { src?: string; failed: boolean } {
  const { query } = useCustom({
    url: url ?? '', method: 'get', meta: blobAnswerMeta, errorNotification: false,
    // the address changes with each upload (?v=…), so an image once read stays as it is
    queryOptions: { enabled: !!url, staleTime: Infinity },
  });
  const blob = url ? query.data?.data as unknown as Blob | undefined : undefined;
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!blob) return setSrc(undefined);
    const objectUrl = URL.createObjectURL(blob);
    setSrc(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return { src, failed: !!url && query.isError };
}
