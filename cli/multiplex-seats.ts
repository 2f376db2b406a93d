/**
 * Seats one agent process hosts at once under `--multiplex` when `--seats-per-process` is not given
 * (`parley run` and `parley worker`). 16, not 8 as before: a run keeps room for every seat in flight, so at
 * `--concurrency 50` two-seat episodes took 14 processes at 8 and take 7 at 16. Each process pays its own
 * start and warms its own copy of the turn path's code (~0.28 s of CPU apiece in a 1,350-episode paper
 * run), while the turns themselves cost the same wherever they run: the paper grid's run step used 8 %
 * less CPU in all (24.6 → 22.6 CPU s, paired), a resumed one 11 % (16.7 → 14.8). Isolation is unchanged:
 * a process never hosts two seats of one episode, however many it hosts.
 */
export const MULTIPLEX_SEATS_PER_PROCESS = 16;
