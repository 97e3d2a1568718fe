// A page's guard: a user the page table does not let open it goes to / (SPEC §2). It guards its
// children, or, as a layout route, the routes inside it.
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useTokenClaims } from '../session/access.ts';
import { mayOpen, type PageAccess } from './pages.tsx';

export function RequireAccess({ access, children }: { access: PageAccess; children?: ReactNode }) {
  if (!mayOpen(useTokenClaims(), access)) return <Navigate to="/" replace />;
  return children ?? <Outlet />;
}
