/**
 * A pooled agent-node process, forked by the orchestrator's supervisor: the package's `#agent-entry`. Its
 * work is in ./worker-main.ts, which ./snapshot-entry.ts also starts from a start-up snapshot.
 */
import { runWorker } from './worker-main.js';

runWorker();
