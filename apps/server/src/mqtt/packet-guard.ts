import type { Socket } from 'node:net';
import { Duplex, Transform, type TransformCallback } from 'node:stream';

/** What an unauthenticated client may send in one packet: a CONNECT, with its will, fits easily. */
export const preAuthMaxPacketBytes = 64 * 1024;

/** Thrown into the stream when a packet announces more than the limit. */
export class OversizedPacketError extends Error {
  override name = 'OversizedPacketError';
  constructor(
    readonly announced: number,
    readonly limit: number,
  ) {
    super(`MQTT packet of ${announced} bytes refused (limit ${limit})`);
  }
}

/**
 * Reads the fixed header of every MQTT packet as its bytes stream past (type byte, then the
 * "remaining length" in 1 to 4 bytes of 7 bits each) and fails the stream as soon as a header
 * announces more than the limit — before the body arrives, so nothing of it is buffered. The
 * bytes themselves pass through unchanged to the broker's parser.
 *
 * It is also the client's read gate: while a message of the client is held (`hold`), no more bytes
 * pass, so the socket stops being read, its data waits in the kernel, and TCP slows the client
 * down. aedes itself parses and handles whatever has been read at once, and reads on while those
 * packets wait: with gateways sending faster than the database stores, their messages piled up
 * parsed in memory (PostgreSQL offered 66,000 samples/s: 3.3 GB, 217 samples/s stored). Gating
 * here, below aedes, leaves its own read bookkeeping alone (its `pause`/`resume` drop the packet
 * completions that arrive while paused, which stalled a gateway's socket for good).
 */
export class PacketGuard extends Transform {
  /** Bytes of the current packet's body still to pass, once its header is read. */
  private bodyLeft = 0;
  /** Reading a header: -1 before its type byte, else the length bytes read so far. */
  private headerAt = -1;
  private length = 0;
  private multiplier = 1;
  /** Messages of the client being handled, and the chunk that waits for them to finish. */
  private holds = 0;
  private waiting: (() => void) | null = null;

  constructor(private limit: number) {
    super();
  }

  /** The client authenticated: its packets may be as large as the broker allows. */
  raise(limit: number): void {
    this.limit = limit;
  }

  /** A message of the client is being handled: pass no more bytes until it is done. */
  hold(): void {
    this.holds++;
  }

  /** One held message is done; once none is, the bytes flow again. */
  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    if (this.holds > 0 || !this.waiting) return;
    const pass = this.waiting;
    this.waiting = null;
    pass();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.bodyLeft > 0) {
        const skip = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= skip;
        i += skip;
        continue;
      }
      const byte = chunk[i++]!;
      if (this.headerAt === -1) {
        this.headerAt = 0;
        this.length = 0;
        this.multiplier = 1;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.headerAt++;
      if (this.length > this.limit) {
        done(new OversizedPacketError(this.length, this.limit));
        return;
      }
      if ((byte & 0x80) === 0 || this.headerAt === 4) {
        this.bodyLeft = this.length;
        this.headerAt = -1;
      }
    }
    if (this.holds > 0) this.waiting = () => done(null, chunk);
    else done(null, chunk);
  }
}

/**
 * The socket as aedes sees it: reads through a PacketGuard, writes straight to the socket. An
 * oversized packet destroys the socket; `onOversize` is told first.
 */
export const guardSocket = (
  socket: Socket,
  onOversize: (error: OversizedPacketError) => void,
): { conn: Duplex; guard: PacketGuard } => {
  const guard = new PacketGuard(preAuthMaxPacketBytes);
  socket.pipe(guard);
  const conn = Duplex.from({ readable: guard, writable: socket });
  guard.once('error', (error) => {
    if (error instanceof OversizedPacketError) onOversize(error);
    socket.destroy();
  });
  socket.once('close', () => conn.destroy());
  // aedes and the client records read the peer's address from the connection.
  Object.assign(conn, { remoteAddress: socket.remoteAddress });
  return { conn, guard };
};
