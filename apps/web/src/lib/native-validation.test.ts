import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The web app's sources (tests run with the web app's folder as their root).
const src = join(import.meta.dirname, '..');

/**
 * Attributes that make the browser check or cut what was typed on its own: a length limit truncates
 * a pasted value without a word, and email/url/number types and patterns raise the browser's bubble
 * over the form's message. The contract rules say what is wrong, on the field, in the user's language.
 */
const nativeChecks = /\bmaxLength=|\bpattern=|\btype="(?:email|url|number|tel)"/;

describe('forms leave validation to the contract rules', () => {
  it('no input truncates what was typed or asks the browser to validate it', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.tsx$/.test(file) && !/\.test\.tsx$/.test(file),
    );
    const offending = files.flatMap((file) =>
      readFileSync(join(src, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (nativeChecks.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });
});
