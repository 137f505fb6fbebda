import net from 'node:net';

/**
 * A TCP proxy in front of the product that can drop the connection in the middle of an upload, as
 * a flaky office network does: once armed, the next request whose first line starts with
 * `PUT /api/uploads/` is cut (both sockets destroyed, no answer) after `afterBytes` bytes of it went
 * through. Everything else passes untouched, so the browser uses the product through it normally.
 * `goDown()` takes the whole network away until `restore()` (a stream whose segments cannot arrive).
 */
export interface CuttingProxy {
  url: string;
  /**
   * Cut the next upload PUT after this many bytes (request line and headers included), then refuse
   * every connection for `outageMs` (the network is down: a browser's silent retry of the request
   * fails too, as it would on a dropped Wi-Fi).
   */
  armUploadCut(afterBytes: number, outageMs?: number): void;
  /** Resolves once an armed cut has happened, with the bytes that went through before it. */
  cut(): Promise<number>;
  /** The network goes down until `restore()`: open connections are dropped, new ones refused. */
  goDown(): void;
  restore(): void;
  close(): Promise<void>;
}

const UPLOAD_PUT = Buffer.from('PUT /api/uploads/');

export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  let armed: number | undefined;
  let outageMs = 0;
  let downUntil = 0;
  let onCut: ((bytes: number) => void) | undefined;
  let cutDone: Promise<number> = new Promise((resolve) => (onCut = resolve));
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    if (Date.now() < downUntil) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    /** bytes of the armed upload PUT forwarded so far on this connection; undefined: none is being counted */
    let counted: number | undefined;
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      // While the network is down, nothing goes through on the connections already open either.
      if (Date.now() < downUntil) {
        drop();
        return;
      }
      if (counted === undefined && armed !== undefined) {
        const at = chunk.indexOf(UPLOAD_PUT);
        if (at !== -1) counted = -at; // count from the request line on
      }
      if (counted !== undefined && armed !== undefined) {
        const limit = armed;
        if (counted + chunk.length >= limit) {
          const keep = Math.max(0, limit - counted);
          upstream.write(chunk.subarray(0, keep), () => {
            armed = undefined;
            downUntil = Date.now() + outageMs;
            onCut?.(limit);
            // Let the server read what arrived, then the network "fails".
            setTimeout(drop, 50);
          });
          counted = undefined;
          client.pause();
          return;
        }
        counted += chunk.length;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', () => {
      upstream.destroy();
      sockets.delete(client);
    });
    upstream.on('close', () => {
      client.destroy();
      sockets.delete(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    armUploadCut(afterBytes, outage = 3000) {
      armed = afterBytes;
      outageMs = outage;
      cutDone = new Promise((resolve) => (onCut = resolve));
    },
    cut: () => cutDone,
    goDown() {
      downUntil = Number.POSITIVE_INFINITY;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      downUntil = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
