import { it } from 'vitest';
import { startAdminGateway } from './admin-support.js';
it('count', async () => {
  const g = await startAdminGateway({ sessions: {} });
  const ops = g.app.adminOperations;
  process.stdout.write(`ops=${ops.length} legacy=${ops.reduce((n, o) => n + (o.legacy?.length ?? 0), 0)} v1=${ops.filter((o) => o.v1).length}\n` + ops.map((o) => `${o.id} ${o.method} ${o.legacy?.map(m=>m.path).join(',') ?? '-'} ${o.v1?.path ?? '-'}`).join('\n') + '\n');
  await g.close();
});
