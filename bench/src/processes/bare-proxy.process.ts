import { buildBareProxy } from '../baseline/bare-proxy.js';

// argv: <upstream origin> <server-held api key>. Loopback only, ephemeral port.
const [upstream, apiKey] = process.argv.slice(2);
if (!upstream || !apiKey) throw new Error('usage: bare-proxy.process.js <upstream-origin> <api-key>');

const app = await buildBareProxy({ upstream, apiKey });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`bare proxy listening on ${address}\n`);
process.on('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
