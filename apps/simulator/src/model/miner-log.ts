import type { Miner } from './miner.js';

/** Minutes between the status lines of a miner's log (CGMiner-family miners log about as often). */
const STATUS_EVERY_MS = 5 * 60_000;

/** A number in [0, 1) fixed by the text (FNV-1a): the same miner and minute always log the same. */
const unit = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 0x1_0000_0000;
};

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** "Antminer S19 Pro"; a model named with its brand already ("Avalon A1366") as it is. */
const modelName = (m: Miner) =>
  m.spec.model.startsWith(m.spec.brand) ? m.spec.model : `${m.spec.brand} ${m.spec.model}`;

/** What a miner writes while it boots (kernel, then the mining program). */
const bootLines = (m: Miner, at: number): [number, string][] => {
  const chains = 3;
  const chips = Math.round(m.spec.hashrateTh / 1.4 / chains);
  const lines: [number, string][] = [
    [at, 'kernel: Booting Linux on physical CPU 0x0'],
    [at, `kernel: Machine model: ${modelName(m)} control board`],
    [at + 2_000, 'kernel: eth0: link up (1000 Mbps/Full duplex)'],
    [at + 4_000, `system: firmware ${m.firmware}, ip ${m.ip}`],
    [at + 6_000, `cgminer: started, ${chains} chains detected`],
  ];
  for (let chain = 0; chain < chains; chain++)
    lines.push([
      at + 8_000 + chain * 1_000,
      `cgminer: chain[${chain}] ${chips} ASIC chips found, voltage set`,
    ]);
  lines.push(
    [at + 12_000, `cgminer: pool 0 ${m.poolAddress} alive, worker ${m.worker}`],
    [at + 14_000, 'cgminer: start mining'],
  );
  return lines;
};

/** The warning a faulty miner repeats, by its fault code. */
const faultLine: Record<string, string> = {
  fan: 'ERROR: fan speed too low, check fans',
  chain: 'ERROR: chain[1] lost, hashrate reduced',
  temp_high: 'WARNING: chip temperature too high, frequency lowered',
};

/**
 * A miner's kernel log over `[from, to]` as its gateway would read it off the miner: a boot section
 * for each boot in the window (restarts, power-ons, the boot before its current uptime), "reboot
 * requested" where a restart was asked, a status line every 5 minutes while it ran (hashrate,
 * hottest chip, pool), and its fault's warnings. At most `maxBytes`: the newest lines are kept.
 */
export const minerLog = (m: Miner, from: number, to: number, now: number, maxBytes: number): string => {
  const end = Math.min(to, now);
  const lines: [number, string][] = [];
  const down: [number, number][] = [];
  for (const event of m.journal) {
    if (event.kind === 'reboot') {
      const until = event.until ?? event.at;
      down.push([event.at, until]);
      if (event.at >= from && event.at <= end) lines.push([event.at, 'system: reboot requested']);
      if (until >= from && until <= end) lines.push(...bootLines(m, until));
    } else {
      const next = m.journal.find((e) => e.at > event.at && e.kind === 'reboot');
      down.push([event.at, next?.at ?? Number.POSITIVE_INFINITY]);
    }
  }
  // The boot of the simulation's start (before any reboot it remembers), from its uptime then.
  if (!m.journal.some((e) => e.kind === 'reboot')) {
    if (m.isOnline(now)) {
      const bootedAt = now - Math.round(m.uptimeS * 1000);
      if (bootedAt >= from && bootedAt <= end) lines.push(...bootLines(m, bootedAt));
      down.push([Number.NEGATIVE_INFINITY, bootedAt]);
    }
  }
  const running = (t: number) => !down.some(([a, b]) => t >= a && t < b);
  const fault = faultLine[m.faultCode()];
  for (let t = Math.ceil(from / STATUS_EVERY_MS) * STATUS_EVERY_MS; t <= end; t += STATUS_EVERY_MS) {
    if (!running(t)) continue;
    const jitter = unit(`${m.sn}:${t}`);
    const hashrate = m.theoretical() * (0.97 + 0.05 * jitter) * 1000;
    const chip = m.chipMaxTemp + (jitter - 0.5) * 3;
    const accepted = Math.floor(t / 60_000) % 100_000;
    lines.push([
      t,
      `cgminer: GHS 5s=${hashrate.toFixed(2)} temp_chip_max=${chip.toFixed(1)}C accepted=${accepted} rejected=${Math.floor(jitter * 3)} pool0=${m.poolAddress}`,
    ]);
    if (fault && now - t < 3_600_000) lines.push([t + 1_000, `cgminer: ${fault}`]);
  }
  lines.sort((a, b) => a[0] - b[0]);
  const text = lines.map(([t, line]) => `${stamp(t)} ${line}`);
  let bytes = text.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let first = 0;
  const marker = (n: number) => `[${n} bytes of earlier log omitted]`;
  if (bytes > maxBytes) {
    // Room for the marker line, then the newest lines that fit.
    const budget = maxBytes - 64;
    while (bytes > budget && first < text.length) {
      bytes -= Buffer.byteLength(text[first]!) + 1;
      first++;
    }
  }
  if (first === 0) return text.map((line) => `${line}\n`).join('');
  const omitted = text.slice(0, first).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  return [marker(omitted), ...text.slice(first)].map((line) => `${line}\n`).join('');
};

/** Splits text into pieces of at most `bytes` UTF-8 bytes, at line ends where it can. */
export const splitParts = (text: string, bytes: number): string[] => {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const lineBytes = Buffer.byteLength(line);
    if (size + lineBytes > bytes && current !== '') {
      parts.push(current);
      current = '';
      size = 0;
    }
    if (lineBytes > bytes) {
      // A line longer than a part: cut it by characters.
      let piece = '';
      for (const ch of line) {
        if (Buffer.byteLength(piece + ch) > bytes) {
          parts.push(piece);
          piece = '';
        }
        piece += ch;
      }
      current = piece;
      size = Buffer.byteLength(piece);
      continue;
    }
    current += line;
    size += lineBytes;
  }
  if (current !== '' || parts.length === 0) parts.push(current);
  return parts;
};
