import { describe, expect, it } from 'vitest';
import { authorization, digestResponse, parseChallenge } from './digest.js';

/** One field of an `Authorization: Digest …` header, unquoted. */
const field = (header: string, name: string) =>
  new RegExp(`[ ,]${name}=(?:"([^"]*)"|([^,\\s]+))`)
    .exec(header)
    ?.slice(1)
    .find((v) => v !== undefined);

describe('HTTP Digest response (RFC worked examples)', () => {
  it('RFC 2617 §3.5: Mufasa, qop=auth, MD5 by default', () => {
    const challenge = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", ' +
        'nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    expect(challenge).toEqual({
      realm: 'testrealm@host.com',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      qop: ['auth', 'auth-int'],
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      stale: false,
    });
    const header = authorization(challenge!, {
      username: 'Mufasa',
      password: 'Circle Of Life',
      method: 'GET',
      uri: '/dir/index.html',
      cnonce: '0a4f113b',
      nc: 1,
    });
    expect(field(header, 'response')).toBe('6629fae49393a05397450978507c4ef1');
    expect(field(header, 'qop')).toBe('auth');
    expect(field(header, 'nc')).toBe('00000001');
    expect(field(header, 'cnonce')).toBe('0a4f113b');
    expect(field(header, 'opaque')).toBe('5ccc069c403ebaf9f0171e9517f40e41');
    expect(field(header, 'uri')).toBe('/dir/index.html');
    expect(header).not.toContain('algorithm=');
  });

  it('RFC 7616 §3.9.1: MD5 and SHA-256, algorithm named back as the server named it', () => {
    const base =
      'realm="http-auth@example.org", qop="auth, auth-int", nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", ' +
      'opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"';
    const input = {
      username: 'Mufasa',
      password: 'Circle of Life',
      method: 'GET',
      uri: '/dir/index.html',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      nc: 1,
    };
    const md5 = authorization(parseChallenge(`Digest ${base}, algorithm=MD5`)!, input);
    expect(field(md5, 'response')).toBe('8ca523f5e9506fed4657c9700eebdbec');
    expect(field(md5, 'algorithm')).toBe('MD5');
    expect(field(md5, 'opaque')).toBe('FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS');
    const sha = authorization(parseChallenge(`Digest ${base}, algorithm=SHA-256`)!, input);
    expect(field(sha, 'response')).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('RFC 2069 (no qop), with its errata: no nc or cnonce, response over nonce and H(A2) only', () => {
    const header = authorization(
      parseChallenge('Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093"')!,
      { username: 'Mufasa', password: 'CircleOfLife', method: 'GET', uri: '/dir/index.html' },
    );
    expect(field(header, 'response')).toBe('1949323746fe6a43ef61f9606e7febea');
    expect(header).not.toMatch(/qop=|nc=|cnonce=/);
  });

  it('MD5-sess folds the nonces into H(A1)', () => {
    const common = {
      username: 'u',
      password: 'p',
      realm: 'r',
      nonce: 'n',
      method: 'GET',
      uri: '/',
      qop: 'auth' as const,
      nc: '00000001',
      cnonce: 'c',
    };
    expect(digestResponse({ ...common, algorithm: 'MD5-sess' })).not.toBe(digestResponse(common));
    expect(digestResponse({ ...common, algorithm: 'md5' })).toBe(digestResponse(common));
  });
});

describe('WWW-Authenticate parsing', () => {
  it("reads Bitmain lighttpd's challenge", () => {
    expect(
      parseChallenge(
        'Digest realm="antMiner Configuration", charset="UTF-8", algorithm=MD5, nonce="5f6a0b1c:0a1b2c3d", qop="auth"',
      ),
    ).toEqual({
      realm: 'antMiner Configuration',
      nonce: '5f6a0b1c:0a1b2c3d',
      qop: ['auth'],
      algorithm: 'MD5',
      stale: false,
    });
  });

  it('finds Digest among other schemes, keeps quoted commas and escapes, reads stale', () => {
    const challenge = parseChallenge([
      'Basic realm="x"',
      'Bearer, Digest realm="Camera, \\"main\\"", nonce="abc", stale=TRUE',
    ]);
    expect(challenge).toMatchObject({ realm: 'Camera, "main"', nonce: 'abc', qop: [], stale: true });
    expect(parseChallenge('Basic realm="antMiner Configuration"')).toBeNull();
    expect(parseChallenge('Digest realm=r, nonce=bm9uY2U=, qop=auth')).toMatchObject({
      nonce: 'bm9uY2U=',
      qop: ['auth'],
    });
    expect(parseChallenge('Digest realm="no nonce"')).toBeNull();
  });

  it('refuses what it cannot answer instead of sending a wrong response', () => {
    const input = { username: 'u', password: 'p', method: 'GET', uri: '/' };
    expect(() =>
      authorization(parseChallenge('Digest realm="r", nonce="n", qop="auth-int"')!, input),
    ).toThrow(/qop auth-int/);
    expect(() =>
      authorization(parseChallenge('Digest realm="r", nonce="n", algorithm=SHA-512')!, input),
    ).toThrow(/algorithm SHA-512/);
  });
});
