#!/usr/bin/env node
/**
 * i18n check run by `npm test`:
 *  1. the web locales (en/zh) and the shared contract texts (sharedEn/sharedZh) have the same keys;
 *  2. no hard-coded UI text in apps/web/src/**\/*.tsx (JSX text, text attributes, toast calls);
 *  3. every literal key passed to t() exists.
 * A line can opt out with an `i18n-ignore` comment on it or on the line above (brand names only).
 * Exit code 1 on any finding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webSrc = join(root, 'apps/web/src');
const problems = [];

const parse = (file) =>
  ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

const unwrap = (node) => {
  let current = node;
  while (
    current &&
    (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current))
  ) {
    current = current.expression;
  }
  return current;
};

/** Keys of the object literal assigned to `const <name> = { … }` in a file. */
const objectKeys = (file, name) => {
  const source = parse(file);
  let keys = null;
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) {
      const init = unwrap(node.initializer);
      if (init && ts.isObjectLiteralExpression(init)) {
        keys = init.properties.map((p) => {
          if (!p.name || !(ts.isStringLiteral(p.name) || ts.isIdentifier(p.name))) {
            throw new Error(`${file}: ${name} has a key that is not a plain string`);
          }
          return p.name.text;
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!keys) throw new Error(`${relative(root, file)}: no object literal named ${name}`);
  return keys;
};

const compare = (label, a, aName, b, bName) => {
  const setA = new Set(a);
  const setB = new Set(b);
  for (const key of a)
    if (!setB.has(key)) problems.push(`${label}: '${key}' is in ${aName} but not in ${bName}`);
  for (const key of b)
    if (!setA.has(key)) problems.push(`${label}: '${key}' is in ${bName} but not in ${aName}`);
  const dupes = a.filter((key, i) => a.indexOf(key) !== i);
  for (const key of dupes) problems.push(`${label}: '${key}' appears twice in ${aName}`);
};

// The web texts are in two parts (before sign-in, and the pages'), each in both languages.
const webEn = [
  ...objectKeys(join(webSrc, 'locales/en-core.ts'), 'enCore'),
  ...objectKeys(join(webSrc, 'locales/en-console.ts'), 'enConsole'),
];
const webZh = [
  ...objectKeys(join(webSrc, 'locales/zh-core.ts'), 'zhCore'),
  ...objectKeys(join(webSrc, 'locales/zh-console.ts'), 'zhConsole'),
];
const sharedEn = objectKeys(join(root, 'packages/contracts/src/messages-en.ts'), 'sharedEn');
const sharedZh = objectKeys(join(root, 'packages/contracts/src/messages-zh.ts'), 'sharedZh');
compare('web locales', webEn, 'en-*.ts', webZh, 'zh-*.ts');
compare('shared messages', sharedEn, 'sharedEn', sharedZh, 'sharedZh');
for (const key of webEn)
  if (sharedEn.includes(key)) problems.push(`web locales: '${key}' shadows a shared message`);
const knownKeys = new Set([...webEn, ...sharedEn]);

const TEXT_ATTRIBUTES = new Set(
  'title subTitle placeholder label okText cancelText content alt aria-label tooltip description message extra help addonBefore addonAfter checkedChildren unCheckedChildren'.split(
    ' ',
  ),
);
const TOAST_OBJECTS = /(^|\.)(message|messageApi|notification|notificationApi)$/;
const TOAST_METHODS = new Set(['success', 'error', 'info', 'warning', 'loading', 'open']);
const HAS_WORDS = /[A-Za-z\u3400-\u9fff]/;

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : files(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });

const literalText = (node) => {
  const expr = node && ts.isJsxExpression(node) ? node.expression : node;
  if (!expr) return null;
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isTemplateExpression(expr))
    return [expr.head.text, ...expr.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
};

for (const file of files(webSrc)) {
  const source = parse(file);
  const lines = source.text.split('\n');
  const where = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const ignored = (line) =>
    /i18n-ignore/.test(lines[line] ?? '') || /i18n-ignore/.test(lines[line - 1] ?? '');
  const report = (node, text) => {
    const line = where(node);
    if (!ignored(line))
      problems.push(`${relative(root, file)}:${line + 1}: ${text.trim().replace(/\s+/g, ' ')}`);
  };
  const isTsx = file.endsWith('.tsx');

  const visit = (node) => {
    if (isTsx && ts.isJsxText(node) && HAS_WORDS.test(node.text)) report(node, node.text);
    if (isTsx && ts.isJsxAttribute(node)) {
      const name = node.name.getText(source);
      const text = literalText(node.initializer);
      if (TEXT_ATTRIBUTES.has(name) && text && HAS_WORDS.test(text)) report(node, `${name}="${text}"`);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const [first] = node.arguments;
      if (isTsx && ts.isPropertyAccessExpression(callee) && TOAST_METHODS.has(callee.name.text)) {
        const owner = callee.expression.getText(source);
        if (TOAST_OBJECTS.test(owner) && first) {
          const text = literalText(first);
          if (text && HAS_WORDS.test(text)) report(node, `${owner}.${callee.name.text}('${text}')`);
          if (ts.isObjectLiteralExpression(first)) {
            for (const prop of first.properties) {
              const value = ts.isPropertyAssignment(prop) ? literalText(prop.initializer) : null;
              if (value && HAS_WORDS.test(value)) report(prop, `${owner}.${callee.name.text}({ ${value} })`);
            }
          }
        }
      }
      const isT =
        (ts.isIdentifier(callee) && callee.text === 't') ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
      if (isT && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        if (!knownKeys.has(first.text)) report(node, `unknown i18n key '${first.text}'`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length > 0) {
  console.error(`i18n check failed (${problems.length}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `i18n check passed: ${webEn.length} web keys and ${sharedEn.length} shared keys in en and zh, no hard-coded UI text.`,
);
