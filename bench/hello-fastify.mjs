// The anchor: a bare fastify hello-world, run in its own process on the port in PORT, so the
// portal's throughput can be read as a share of what fastify itself does on this machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
