// The component image's entry point: its first argument picks the service (gateway, the default, optimizer or
// evidence); the rest is passed on (`gw optimizer --help`). The service runs in this process, so it is PID 1 and
// receives SIGTERM itself: each service drains on it (platform's Lifecycle) and spawns no children to reap.
// Each service runs as its bundle (images/rolldown.config.mjs).
const services = {
  gateway: '/app/gateway/bundle/main.js',
  optimizer: '/app/optimizer/bundle/main.js',
  evidence: '/app/evidence/bundle/main.js',
};

const [first] = process.argv.slice(2);
const name = first === undefined || first.startsWith('-') ? 'gateway' : first;
if (!Object.hasOwn(services, name)) {
  process.stderr.write(
    `unknown component "${name}": the first argument is one of ${Object.keys(services).join(', ')} (default gateway)\n`,
  );
  process.exit(2);
}
if (name === first) process.argv.splice(2, 1);
process.argv[1] = services[name];
await import(services[name]);
