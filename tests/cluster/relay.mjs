// A TCP relay for the cluster tests: `node relay.mjs UPSTREAM_PORT` listens on 127.0.0.1
// and a free port (printed on stdout), and forwards every connection to UPSTREAM_PORT.
// A process of its own, so that the test can freeze it with SIGSTOP (nothing forwarded,
// nothing closed: a half-open network whose kernels keep acknowledging) and thaw it with
// SIGCONT, and so that the test's own blocking calls never hold it.
import net from 'node:net';

const upstreamPort = Number(process.argv[2]);
const server = net.createServer((client) => {
  const upstream = net.connect(upstreamPort, '127.0.0.1');
  client.pipe(upstream);
  upstream.pipe(client);
  const end = () => { client.destroy(); upstream.destroy(); };
  for (const s of [client, upstream]) { s.on('close', end); s.on('error', end); }
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
