import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** /redirect/<path> → /<path>: the detour remounts the page (tags view refresh). */
export const RedirectPage = () => {
  const { '*': path = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(`/${path}${search}`, { replace: true });
  }, [navigate, path, search]);
  return null;
};
