// A file of the API (a region's overlay image, a board's uploaded image or video) as a local object
// URL: read through the data provider, which carries the session and refreshes it, so that an
// <img>, a <video> or the map loads it without credentials of its own.
import { useCustom } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { blobAnswerMeta } from './dataProvider.ts';

export function useSessionFile(path: string | undefined): { src?: string; failed: boolean } {
  const { query } = useCustom({
    url: path ?? '', method: 'get', meta: blobAnswerMeta, errorNotification: false,
    // such an address names one file for good (a new upload gets a new one), so a file once read stays as it is
    queryOptions: { enabled: !!path, staleTime: Infinity },
  });
  const blob = path ? query.data?.data as unknown as Blob | undefined : undefined;
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!blob) return setSrc(undefined);
    const objectUrl = URL.createObjectURL(blob);
    setSrc(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return { src, failed: !!path && query.isError };
}
