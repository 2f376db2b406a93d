/**
 * How frames ride on socket.io between the orchestrator and a browser page. Shared by
 * orchestrator/net/socketio-endpoint.ts and web/: the frames are the same JSON texts as on `ws`; only
 * the envelope differs (a socket.io event per frame, and an explicit close event, because socket.io has
 * no close codes of its own).
 */

/** socket.io's mount point on the orchestrator's HTTP server. */
export const SOCKET_IO_PATH = '/socket.io/';

/** Event carrying one frame (a JSON text), in both directions. */
export const FRAME_EVENT = 'frame';

/** Server → page, just before the server disconnects: the close code and reason `ws` would have sent. */
export const CLOSE_EVENT = 'seat.close';

/** Payload of CLOSE_EVENT. */
export interface BrowserClose {
  code: number;
  reason: string;
}
