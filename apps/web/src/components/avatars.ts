import { limits } from '@fbox/contracts';

const files = import.meta.glob<string>('../assets/avatars/*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
});

/** Avatar image URL for 1…10 (anything else shows avatar 1). */
export const avatarUrl = (n: number): string => {
  const index = Number.isInteger(n) && n >= limits.avatarMin && n <= limits.avatarMax ? n : limits.avatarMin;
  return files[`../assets/avatars/${index}.svg`] ?? '';
};

export const avatarNumbers = Array.from(
  { length: limits.avatarMax - limits.avatarMin + 1 },
  (_, i) => i + limits.avatarMin,
);
