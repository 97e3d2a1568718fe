// The selected entity and the browser address (SPEC §2): selecting changes the address to
// /dashboard/entity/{id} (or …/detail) without a navigation, clearing goes back to /dashboard/,
// and an address opened directly (or reached with Back) selects what it names.
import { useCallback, useEffect, useState } from 'react';

export interface AddressSelection { id?: number; detail: boolean }

const ADDRESS = /^\/dashboard\/entity\/(\d{1,10})(\/detail)?\/?$/;

export function selectionOf(pathname: string): AddressSelection {
  const match = ADDRESS.exec(pathname);
  return match ? { id: Number(match[1]), detail: !!match[2] } : { detail: false };
}

export const addressOf = (selection: AddressSelection) =>
  selection.id === undefined ? '/dashboard/' : `/dashboard/entity/${selection.id}${selection.detail ? '/detail' : ''}`;

export function useAddressSelection(): [AddressSelection, (next: AddressSelection) => void] {
  const [selection, setSelection] = useState(() => selectionOf(window.location.pathname));
  useEffect(() => {
    const onPop = () => setSelection(selectionOf(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const select = useCallback((next: AddressSelection) => {
    setSelection(next);
    const address = addressOf(next);
    if (address !== window.location.pathname) window.history.pushState(window.history.state, '', address);
  }, []);
  return [selection, select];
}
