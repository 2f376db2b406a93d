/**
 * How many agent processes a local run keeps: room for every seat in flight (`inFlight` episodes of
 * `seatsPerEpisode` seats, `seatsPerWorker` seats per process), plus spare seats for up to 4 episodes so
 * a lane starts its next episode at once while the processes of the one it just finished are still
 * closing their connections (which takes tens of ms under load and would otherwise idle the lane).
 * Never fewer than `seatsPerEpisode`: two seats of one episode never share a process.
 */
export function poolSizeFor(inFlight: number, seatsPerEpisode: number, seatsPerWorker: number): number {
  const spareSeats = Math.min(4, Math.max(0, inFlight - 1)) * seatsPerEpisode;
  return Math.max(seatsPerEpisode, Math.ceil((inFlight * seatsPerEpisode + spareSeats) / seatsPerWorker));
}
