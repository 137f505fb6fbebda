/**
 * Test support: a fake XMLHttpRequest and, behind it, a signed video location that keeps what
 * arrives as the upload protocol of docs/decisions/0036-resumable-uploads-with-content-range.md says (jsdom has no real upload). The test drives each transfer:
 * `progress` reports bytes sent, `cut` breaks the connection keeping what arrived, `complete`
 * stores the rest (204), `answer` gives any other answer. Offset questions (`Content-Range:
 * bytes * /total`, empty body) and ranges that do not start at the stored bytes (409) are answered
 * by the location itself, as the server does.
 */

export interface RecordedPut {
  url: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** Size of the body (null when none). */
  bodySize: number | null;
  /** The client aborted it. */
  aborted: boolean;
}

type Handler = ((event: { loaded: number; total: number }) => void) | null;

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;
const PROBE = /^bytes \*\/(\d+)$/;

export function createFakeUploadTarget() {
  /** Bytes the location holds. */
  let stored = 0;
  let complete = false;
  const puts: RecordedPut[] = [];
  let current: FakeXhr | null = null;
  /** Requests still to break at once (the network is down). */
  let down = 0;

  class FakeXhr {
    upload: { onprogress: Handler } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    record: RecordedPut = { url: '', headers: {}, bodySize: null, aborted: false };
    /** Where this request's body starts in the file. */
    first = 0;
    private responseHeaders: Record<string, string> = {};
    private finished = false;

    open(method: string, url: string) {
      if (method !== 'PUT') throw new Error(`Unexpected ${method}`);
      this.record.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.record.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string): string | null {
      return this.responseHeaders[name.toLowerCase()] ?? null;
    }
    send(body: Blob | null) {
      this.record.bodySize = body ? body.size : null;
      puts.push(this.record);
      if (down > 0) {
        down -= 1;
        queueMicrotask(() => this.fail());
        return;
      }
      const range = this.record.headers['content-range'];
      const probe = range ? PROBE.exec(range) : null;
      if (probe) {
        // How much is stored: answered at once (after the call returns, as a network answer would be).
        queueMicrotask(() => this.finish(complete ? 204 : 202, { 'Upload-Offset': String(stored) }));
        return;
      }
      const part = range ? CONTENT_RANGE.exec(range) : null;
      if (range && !part) throw new Error(`Malformed Content-Range ${range}`);
      this.first = part ? Number(part[1]) : 0;
      if (part && this.first !== stored) {
        queueMicrotask(() =>
          this.finish(409, { 'Upload-Offset': String(stored) }, JSON.stringify({ type: 'upload-offset-mismatch', status: 409 })),
        );
        return;
      }
      // A whole file starts over.
      if (!part) stored = 0;
      current = this;
    }
    abort() {
      if (this.finished) return;
      this.finished = true;
      this.record.aborted = true;
      if (current === this) current = null;
      this.onabort?.();
    }
    finish(status: number, headers: Record<string, string> = {}, body = '') {
      if (this.finished) return;
      this.finished = true;
      if (current === this) current = null;
      this.status = status;
      this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
      this.responseText = body;
      this.onload?.();
    }
    fail() {
      if (this.finished) return;
      this.finished = true;
      if (current === this) current = null;
      this.onerror?.();
    }
  }

  const live = (): FakeXhr => {
    if (!current) throw new Error('No transfer is in flight');
    return current;
  };

  return {
    /** The constructor to install as `XMLHttpRequest` (or to return from `createRequest`). */
    XMLHttpRequest: FakeXhr as unknown as typeof XMLHttpRequest,
    /** Every PUT, oldest first. */
    puts,
    /** Bytes the location holds. */
    get stored() {
      return stored;
    },
    /** Whether a transfer with a body is waiting for the test. */
    get inFlight() {
      return current !== null;
    },
    /** The transfer in flight has sent `sent` bytes of its body. */
    progress(sent: number) {
      const request = live();
      request.upload.onprogress?.({ loaded: sent, total: request.record.bodySize ?? 0 });
    },
    /** The connection breaks after `sent` bytes of the body arrived: the location keeps them. */
    cut(sent: number) {
      const request = live();
      stored = request.first + sent;
      request.fail();
    },
    /** The rest of the body arrives: the file is complete (204). */
    complete() {
      const request = live();
      request.upload.onprogress?.({ loaded: request.record.bodySize ?? 0, total: request.record.bodySize ?? 0 });
      stored = request.first + (request.record.bodySize ?? 0);
      complete = true;
      request.finish(204);
    },
    /** The network is down for the next `requests` requests: each breaks at once, without reaching the location. */
    breakNext(requests: number) {
      down = requests;
    },
    /** Any other answer to the transfer in flight (a refusal: 413, 415, 403…). */
    answer(status: number, { headers = {}, type }: { headers?: Record<string, string>; type?: string } = {}) {
      live().finish(status, headers, type ? JSON.stringify({ type, title: type, status }) : '');
    },
  };
}

export type FakeUploadTarget = ReturnType<typeof createFakeUploadTarget>;
