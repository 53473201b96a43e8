import { writeToStream } from 'mqtt-packet';

/**
 * mqtt-packet (under both the embedded broker and mqtt.js) writes two-byte numbers such as message ids from a table of
 * 65,536 two-byte buffers that it builds on its first packet: 6.5 MB of heap held for the life of the process. Written
 * as they come, each costs one small allocation next to the packet's own.
 */
writeToStream.cacheNumbers = false;
