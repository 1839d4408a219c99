import { describe, expect, it } from 'vitest';
import { detectLanguage, langHeader } from './language';

describe('detectLanguage', () => {
  it('prefers the cookie over the browser', () => {
    expect(detectLanguage('en', 'zh-CN')).toBe('en');
    expect(detectLanguage('zh', 'en-US')).toBe('zh');
  });

  it('falls back to the browser language when the cookie is missing or unknown', () => {
    expect(detectLanguage(undefined, 'zh-TW')).toBe('zh');
    expect(detectLanguage('fr', 'zh')).toBe('zh');
    expect(detectLanguage(undefined, 'de-DE')).toBe('en');
  });

  it('ends at English', () => {
    expect(detectLanguage(undefined, undefined)).toBe('en');
  });

  it('maps languages to the lang header', () => {
    expect(langHeader('zh')).toBe('zh-cn');
    expect(langHeader('en')).toBe('en-us');
  });
});
