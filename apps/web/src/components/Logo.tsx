/** The FBOX mark: a box with an F, drawn inline so it needs no request. */
export const Logo = ({ size = 32 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="6" fill="#1890ff" />
    <path d="M9 8h14v4H13v3h8v4h-8v5H9z" fill="#fff" />
  </svg>
);
