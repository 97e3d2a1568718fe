// Routes of a feature module: a user whose token lacks the module goes to / (SPEC §2).
import { Navigate, Outlet } from 'react-router';
import { hasAnyModule, useTokenClaims } from '../session/access.ts';
import type { AppModule } from './appModules.ts';

export function RequireModule({ modules }: { modules: readonly AppModule[] }) {
  const claims = useTokenClaims();
  if (!hasAnyModule(claims.modules, modules)) return <Navigate to="/" replace />;
  return <Outlet />;
}
