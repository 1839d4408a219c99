import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { renderPage, resetPageTest } from '../../test-page';
import { LoginPage } from './LoginPage';

afterEach(resetPageTest);

describe('LoginPage', () => {
  it('imports nothing from antd, so the first page people load downloads none of it', () => {
    const text = readFileSync(join(import.meta.dirname, 'LoginPage.tsx'), 'utf8');
    expect(text).not.toMatch(/from '(antd|@ant-design\/[a-z-]+)[/']/);
  });

  it('says on each field what is missing and keeps what was typed', () => {
    renderPage(<LoginPage />);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    fireEvent.change(password, { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByTestId('login-submit'));

    const username = screen.getByLabelText('Username');
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('login_username_help')?.textContent).toBe('Username is required');
    expect(password.getAttribute('aria-invalid')).toBeNull();
    expect(password.value).toBe('secret-1');
  });

  it('shows and hides the password on demand, saying which in the user language', async () => {
    await changeLanguage('zh');
    renderPage(<LoginPage />);
    const password = screen.getByLabelText('密码') as HTMLInputElement;
    expect(password.type).toBe('password');

    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password.type).toBe('text');
    const reveal = screen.getByRole('button', { name: '隐藏密码' });
    expect(reveal.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(reveal);
    expect(password.type).toBe('password');
  });
});
