// Development mode: the API server (restarted on change) and Vite (hot reload, /api proxied to the server).
// Links the server prints (first administrator, invitations) point at Vite's address.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit', env: { PUBLIC_URL: 'http://localhost:5173', ...process.env, PORT: process.env.PORT ?? '8080' } }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { if (code) { stop(); process.exitCode = code; } });
