import { Decoder, Encoder, PacketType, protocol } from 'socket.io-parser';

/**
 * socket.io's packet parser with everything Parley's browser seats never send refused before it is
 * buffered or decoded (issue 19, k02/k04):
 * - binary packets and attachments (a seat's frames are JSON text): without this, a tokenless client
 *   that announces attachments and never sends them pins their bytes until socket.io gives up;
 * - event packets whose name is not a string (socket.io accepts numbers);
 * - anything but text on the wire.
 * A refused packet throws inside socket.io's decoder, which closes that connection; nothing reaches a
 * handler, and no other connection notices.
 */
class TextOnlyDecoder extends Decoder {
  constructor() {
    super({ maxAttachments: 0 });
  }

  override add(packet: unknown): void {
    if (typeof packet !== 'string') throw new Error('binary data is not accepted');
    const type = packet.charCodeAt(0) - 48;
    if (type === PacketType.BINARY_EVENT || type === PacketType.BINARY_ACK) throw new Error('binary packets are not accepted');
    if (type === PacketType.EVENT && !/^2(\/[^,]*,)?\d*\["/.test(packet)) throw new Error('event names must be strings');
    super.add(packet);
  }
}

/** The parser the browser endpoint's socket.io server uses (the client keeps socket.io's default). */
export const textOnlyParser = { Encoder, Decoder: TextOnlyDecoder, PacketType, protocol };
