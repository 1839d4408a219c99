import { isHttpUrl } from '@fbox/contracts';

/**
 * A pool address that opens in a new tab without handing the pool's page a reference to ours.
 * Only http(s) addresses become links (the server accepts nothing else; this keeps it so for
 * whatever an older server stored).
 */
export const ExternalLink = ({ href, testId }: { href: string; testId?: string }) =>
  isHttpUrl(href) ? (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {href}
    </a>
  ) : (
    <span data-testid={testId}>{href}</span>
  );
