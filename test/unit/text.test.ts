import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lossyDiagnostic, readLossy } from '../../src/core/readText';
import fc from 'fast-check';
import { byteCount, charCount, offsetOfByte, takeChars } from '../../src/core/text';
import { tree } from './fixture';

// The shared text measures every profile counts budgets and places cuts with.
describe('text measures', () => {
  it('offsetOfByte: the character holding byte n, so a cut inside "é" points at the "é"', () => {
    assert.equal(offsetOfByte('aé', 0), 0);
    assert.equal(offsetOfByte('aé', 1), 1);
    assert.equal(offsetOfByte('aé', 2), 1, 'byte 2 is the second byte of "é", at offset 1');
    assert.equal(offsetOfByte('aé', 3), 2, 'past the end: the length');
    assert.equal(offsetOfByte('a😀b', 4), 1, 'inside a surrogate pair: the pair');
    assert.equal(offsetOfByte('a😀b', 5), 3);
  });

  it('charCount and takeChars count code points, a surrogate pair as one and a lone surrogate as one', () => {
    assert.equal(charCount('a😀é'), 3);
    assert.equal(charCount('\ud800x'), 2);
    assert.equal(takeChars('a😀é', 2), 'a😀');
    assert.equal(takeChars('ab', 5), 'ab');
    assert.equal(takeChars('ab', 0), '');
  });

  it('charCount is the code points and byteCount the bytes TextEncoder sends, on any UTF-16 text (lone surrogates too)', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('a', 'é', '😀', '\ud800', '\udc00'));
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (s) => {
        assert.equal(charCount(s), [...s].length);
        assert.equal(byteCount(s), encoder.encode(s).byteLength);
      }),
      { numRuns: 2000, seed: 20261201 },
    );
  });
});

describe('readLossy', () => {
  it('reads clean text as is and keeps the bytes on disk, a BOM included', () => {
    const t = tree({ '/a.md': '\ufeffhé\n' });
    const r = readLossy(t.fs, '/a.md');
    assert.equal(r.state, 'ok');
    if (r.state !== 'ok') return;
    assert.equal(r.text, '\ufeffhé\n');
    assert.deepEqual([...r.raw], [0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9, 0x0a]);
    assert.equal(r.problem, undefined);
  });

  it('turns bad bytes into U+FFFD and says why, with the diagnostic every lossy agent reports', () => {
    const t = tree({ '/bad.md': new Uint8Array([0x61, 0xff, 0x62]), '/bin.md': new Uint8Array([0x61, 0x00, 0x62]) });
    const bad = readLossy(t.fs, '/bad.md');
    assert.ok(bad.state === 'ok' && bad.text === 'a\ufffdb' && bad.problem === 'not-utf8' && bad.bytes === 3);
    const bin = readLossy(t.fs, '/bin.md');
    assert.ok(bin.state === 'ok' && bin.text === 'a\0b' && bin.problem === 'binary');
    const d = lossyDiagnostic('/bad.md', 'not-utf8', 'The agent sends replacement characters.');
    assert.deepEqual([d.code, d.severity, d.message], ['not-utf8', 'error', 'This file is not valid UTF-8 text: The agent sends replacement characters.']);
    assert.equal(lossyDiagnostic('/bad.md', 'not-utf8', 'x', 'warning').severity, 'warning');
  });

  it('says what is missing or a folder instead of reading', () => {
    const t = tree({ '/d/x.md': 'x' });
    assert.equal(readLossy(t.fs, '/nothing.md').state, 'missing');
    assert.equal(readLossy(t.fs, '/d').state, 'directory');
  });
});
