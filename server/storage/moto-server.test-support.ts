import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { CreateBucketCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * A fuller S3 for tests: moto's server (`moto_server`, from the system's Python, on every machine that
 * runs the tests) as a child process on a port of its own. It keeps everything in memory, so one process
 * serves a whole test file and each test or suite takes a bucket of its own. It does not check request
 * signatures: a test of refused credentials runs on s3rver (s3rver.test-support.ts).
 */
export interface MotoServer {
  /** "moto_server 5.2.1": which server ran, for the tests' names */
  name: string;
  endpoint: string;
  /** a new, empty bucket */
  newBucket(): Promise<MotoBucket>;
  close(): Promise<void>;
}

export interface MotoBucket {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** the server's environment variables for this bucket (S3_*), with a prefix when given */
  env(prefix?: string): Record<string, string>;
  /** every multipart upload in progress (key and id), as the service lists them */
  uploadsInProgress(): Promise<Array<{ key: string; uploadId: string }>>;
}

const BINARY = 'moto_server';
// moto accepts any credentials; these only have to be well formed.
const CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };
const STARTUP_MS = 30_000;

/** The version of moto the running server imported, asked of the interpreter it runs on. */
function motoVersion(pid: number): string {
  let python = 'python3';
  try {
    python = fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    // not Linux: the Python on PATH is the best guess
  }
  try {
    return execFileSync(python, ['-c', "import importlib.metadata as m; print(m.version('moto'))"], { encoding: 'utf8' }).trim();
  } catch {
    return '(version unknown)';
  }
}

/** Starts moto_server on 127.0.0.1 on a port it picks, and resolves once it answers S3 requests. */
export async function startMotoServer(): Promise<MotoServer> {
  const child = spawn(BINARY, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${BINARY} printed no address within ${STARTUP_MS / 1000} s:\n${output}`)), STARTUP_MS);
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    let started = false;
    const read = (chunk: Buffer) => {
      if (started) return; // its request log is read and dropped, so the pipe never fills
      output += chunk.toString();
      const found = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found) {
        started = true;
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ENOENT'
          ? new Error(`${BINARY} is not on PATH: the S3 tests need moto's server (every test machine has it; elsewhere: pip install 'moto[server]')`)
          : error,
      ),
    );
    child.once('exit', (code, signal) => fail(new Error(`${BINARY} stopped before it answered (${signal ?? `exit ${code}`}):\n${output}`)));
  });
  child.removeAllListeners('exit');
  // a test process that ends without close() (a crash, Ctrl-C) does not leave moto running
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  await answering(endpoint, child);
  const name = `${BINARY} ${motoVersion(child.pid!)}`;

  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  let buckets = 0;
  return {
    name,
    endpoint,
    async newBucket() {
      const bucket = `tao-${++buckets}-${crypto.randomBytes(3).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return {
        endpoint,
        bucket,
        credentials: CREDENTIALS,
        env: (prefix?: string) => ({
          S3_ENDPOINT: endpoint,
          S3_BUCKET: bucket,
          S3_REGION: 'us-east-1',
          S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
          S3_FORCE_PATH_STYLE: 'true',
          ...(prefix ? { S3_PREFIX: prefix } : {}),
        }),
        async uploadsInProgress() {
          const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
          return (listed.Uploads ?? []).map((u) => ({ key: u.Key!, uploadId: u.UploadId! }));
        },
      };
    },
    async close() {
      client.destroy();
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until the server answers an S3 request (ListBuckets), or fails if it stops first. */
async function answering(endpoint: string, child: ChildProcess): Promise<void> {
  for (const deadline = Date.now() + STARTUP_MS; ; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error(`${BINARY} stopped before it answered (exit ${child.exitCode})`);
    try {
      if ((await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${BINARY} at ${endpoint} did not answer within ${STARTUP_MS / 1000} s`);
    }
  }
}
