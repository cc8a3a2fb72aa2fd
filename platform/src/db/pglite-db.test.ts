import { createMemoryPgliteDb } from './test-db.js';
import { describeDbSuite } from './db.suite.js';

describeDbSuite('PGlite (embedded)', createMemoryPgliteDb);
