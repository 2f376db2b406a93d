/**
 * How many agent processes a local run keeps: room for every seat in flight (`inFlight` episodes of
 * `seatsPerEpisode` seats, `seatsPerWorker` seats per process), plus spare seats for up to 4 episodes so
 * a lane starts its next episode at once while the processes of the one it just finished are still
 * closing their connections (which takes tens of ms under load and would otherwise idle the lane).
 * No more spares than there are episodes left after the first `inFlight` (`later`, when the run knows it):
 * a short run's spare processes would only start, warm and be stopped (a 2-episode run started 6 processes
 * for 3 seats). Never fewer than `seatsPerEpisode`: two seats of one episode never share a process.
 */
export function poolSizeFor(inFlight: number, seatsPerEpisode: number, seatsPerWorker: number, later = Infinity): number {
  const spareSeats = Math.min(4, Math.max(0, inFlight - 1), Math.max(0, later)) * seatsPerEpisode;
  return Math.max(seatsPerEpisode, Math.ceil((inFlight * seatsPerEpisode + spareSeats) / seatsPerWorker));
}
