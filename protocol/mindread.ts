import * as z from 'zod';
import { SeatId, seatIdProblem } from './seat-id.js';

/**
 * Who reads whose mind in `mindreaders` mode: reader seat → the seats whose private state it receives
 * (each delivery one logged `peer.state` frame). Absent on a protocol: everyone reads everyone (`all`,
 * the paper's mindreaders). Directed and partial: `agent1<-agent2` lets agent1 read agent2 and nobody
 * read agent1.
 */
export const MindreadGraph = z.record(SeatId, z.array(SeatId));
export type MindreadGraph = z.infer<typeof MindreadGraph>;

/** A map is short: a dozen seats at most (scenarios/seat-structure.ts), each reading the others. */
const MAX_SPEC = 2000;

/**
 * Parses `--mindread`: `all`, or `reader<-source,source;reader<-source`. Seat ids follow the scenario
 * grammar; a reader appears once; nobody reads itself. Returns null for `all`. Error messages quote no
 * more of the input than one seat id, which the grammar has already checked or cut.
 */
export function parseMindread(spec: string): { ok: true; graph: MindreadGraph | null } | { ok: false; message: string } {
  const text = spec.trim();
  if (text === 'all') return { ok: true, graph: null };
  if (text.length === 0 || text.length > MAX_SPEC) return { ok: false, message: `expected 'all' or reader<-seat,seat;reader<-seat (at most ${MAX_SPEC} characters)` };
  // Keyed by seat ids: no prototype, so no id can reach an inherited member.
  const graph: MindreadGraph = Object.create(null) as MindreadGraph;
  for (const part of text.split(';').map((p) => p.trim()).filter((p) => p !== '')) {
    const arrow = part.indexOf('<-');
    if (arrow < 0) return { ok: false, message: `'${cut(part)}' has no '<-' (write reader<-seat,seat)` };
    const reader = part.slice(0, arrow).trim();
    const sources = part.slice(arrow + 2).split(',').map((s) => s.trim());
    for (const seat of [reader, ...sources]) {
      const problem = seatIdProblem(seat);
      if (problem) return { ok: false, message: problem.startsWith('a seat id') ? `'${cut(seat)}' is not a seat id (letters, digits, _ and -)` : problem };
    }
    if (Object.hasOwn(graph, reader)) return { ok: false, message: `${reader} is named as a reader twice` };
    if (sources.includes(reader)) return { ok: false, message: `${reader} cannot read its own mind` };
    graph[reader] = [...new Set(sources)].sort();
  }
  if (Object.keys(graph).length === 0) return { ok: false, message: "expected 'all' or reader<-seat,seat;reader<-seat" };
  return { ok: true, graph };
}

/** The graph written back in a canonical form (readers sorted): for episode ids, run.json and the card. */
export function mindreadKey(graph: MindreadGraph): string {
  return Object.keys(graph).sort().map((r) => `${r}<-${graph[r]!.join(',')}`).join(';');
}

/** Whether `reader` is sent `source`'s private state: always without a graph, else only along an edge. */
export function readsMind(graph: MindreadGraph | undefined, reader: string, source: string): boolean {
  return !graph || (Object.hasOwn(graph, reader) && (graph[reader]?.includes(source) ?? false));
}

/** Every seat a graph names, readers and sources. */
export function mindreadSeats(graph: MindreadGraph): string[] {
  return [...new Set(Object.entries(graph).flatMap(([r, s]) => [r, ...s]))].sort();
}

function cut(text: string): string {
  const one = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
}
