// SPEC §2: the login URL keeps the full original path (path, query and hash) in `redirect`.
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  return `/login?redirect=${encodeURIComponent(location.pathname + location.search + location.hash)}`;
}
