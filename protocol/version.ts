/** Wire protocol version. Every frame carries `v`; a peer speaking another version is refused. */
export const PROTOCOL_VERSION = 1 as const;

/** Largest frame (bytes of UTF-8 JSON) either side accepts. Larger frames are rejected, not parsed. */
export const MAX_FRAME_BYTES = 256 * 1024;
