import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { loginPath, safeRedirect } from '../../lib/navigation';
import { getToken } from '../../lib/session';

/**
 * Landing point for links that pass through sign-in (open to visitors, spec §2): signed-in users go on
 * to the `redirect` target, visitors to /login keeping it.
 */
export const AuthRedirectPage = () => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const target = safeRedirect(params.get('redirect'));
    navigate(getToken() ? (target ?? '/index') : loginPath(target ?? undefined), { replace: true });
  }, [params, navigate]);
  return null;
};
