// Pages for signed-out users (the login page): a signed-in user is sent to /.
import { Navigate, Outlet } from 'react-router';
import { useAccessToken } from '../session/tokenStorage.ts';

export function GuestOnly() {
  const token = useAccessToken();
  if (token) return <Navigate to="/" replace />;
  return <Outlet />;
}
