// Hands the router's navigate function to code outside React (session expiry).
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { registerAppNavigation } from '../session/appNavigation.ts';

export function AppNavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    registerAppNavigation((path) => navigate(path, { replace: true }));
    return () => registerAppNavigation(null);
  }, [navigate]);
  return null;
}
