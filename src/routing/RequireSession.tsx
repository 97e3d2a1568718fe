// Only signed-in users pass; anyone else goes to /login with the way back in `redirect`.
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAccessToken } from '../session/tokenStorage.ts';
import { loginPathFor } from './loginRedirect.ts';

export function RequireSession() {
  const token = useAccessToken();
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location)} replace />;
  return <Outlet />;
}
