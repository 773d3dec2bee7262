import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The `token` of a link from an e-mail (/password-reset/confirm, /verify-email): read once, then
 * kept in memory only. The token opens the account (or confirms its address) until it is used,
 * so it leaves the address bar (history, synced tabs, a shared screen, Referer) at once.
 */
export function useTokenFromUrl(): string | null {
  const [searchParams, setSearchParams] = useSearchParams();
  const [token] = useState(() => searchParams.get('token'));
  useEffect(() => {
    if (!searchParams.has('token')) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete('token');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);
  return token;
}
