// A self-signed serving certificate for 127.0.0.1, built with node:crypto alone (DER by hand).
// kubectl only sends bearer tokens over TLS (client-go's IsConfigTransportTLS), so the sandbox
// serves HTTPS and puts this certificate in the kubeconfig as the cluster's CA.
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n >>= 8;
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}

const seq = (...p: Buffer[]) => tlv(0x30, ...p);
const set = (...p: Buffer[]) => tlv(0x31, ...p);
const octets = (b: Buffer) => tlv(0x04, b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const explicit = (n: number, b: Buffer) => tlv(0xa0 + n, b);

function oid(s: string): Buffer {
  const parts = s.split('.').map(Number);
  const out: number[] = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const stack: number[] = [p & 0x7f];
    let v = p >>> 7;
    while (v > 0) {
      stack.unshift((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(...stack);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(b: Buffer): Buffer {
  let x = b;
  while (x.length > 1 && x[0] === 0 && (x[1] & 0x80) === 0) x = x.subarray(1);
  if (x[0] & 0x80) x = Buffer.concat([Buffer.from([0]), x]);
  return tlv(0x02, x);
}

function utcTime(d: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const s = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(s, 'ascii'));
}

function ext(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

export interface ServingCert {
  /** PEM certificate (also the CA to trust). */
  cert: string;
  /** PEM PKCS#8 private key. */
  key: string;
}

export function selfSignedCert(commonName = 'rs-reconcile-sandbox'): ServingCert {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.10'), utf8('rs-reconcile'))), set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const san = seq(
    tlv(0x87, Buffer.from([127, 0, 0, 1])),
    tlv(0x87, Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
    tlv(0x82, Buffer.from('localhost', 'ascii')),
  );
  const extensions = seq(
    ext('2.5.29.19', true, seq(bool(true))),
    // digitalSignature (bit 0) and keyCertSign (bit 5).
    ext('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
    ext('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
    ext('2.5.29.17', false, san),
  );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaSha256,
    name,
    seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 365 * 24 * 3600_000))),
    name,
    spki,
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, ecdsaSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  const cert = `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
  // Parse it back: a malformed encoding fails here rather than in a client.
  const x = new X509Certificate(cert);
  if (!x.verify(publicKey) || !x.checkIP('127.0.0.1')) throw new Error('generated certificate does not verify');
  const key = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({ type: 'pkcs8', format: 'pem' }) as string;
  return { cert, key };
}
