package org.testbed.driver;

import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates a whole gzip body (RFC 1952: one member, header, deflate data, CRC-32 and length),
 * checking its trailer. One per event loop, reused for every response: {@code GZIPInputStream}
 * would make a new native inflater per response, which costs more than the check it serves.
 */
final class Gunzip {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private byte[] out = new byte[8192];

    /** The inflated bytes of {@code gzip}; an IOException saying what is wrong when it is not a valid gzip body. */
    byte[] inflate(byte[] gzip) throws IOException {
        int at = headerLength(gzip);
        inflater.reset();
        inflater.setInput(gzip, at, gzip.length - at);
        int n = 0;
        try {
            while (!inflater.finished()) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IOException("the deflate data ends early");
                }
                n += got;
            }
        } catch (DataFormatException e) {
            throw new IOException("bad deflate data: " + e.getMessage(), e);
        }
        int trailer = gzip.length - inflater.getRemaining();
        if (gzip.length - trailer < 8) {
            throw new IOException("no CRC-32 and length after the deflate data");
        }
        crc.reset();
        crc.update(out, 0, n);
        if ((int) crc.getValue() != le32(gzip, trailer) || n != le32(gzip, trailer + 4)) {
            throw new IOException("the CRC-32 or the length does not match the inflated bytes");
        }
        return Arrays.copyOf(out, n);
    }

    private static int headerLength(byte[] b) throws IOException {
        if (b.length < 18 || (b[0] & 0xff) != 0x1f || (b[1] & 0xff) != 0x8b || b[2] != 8) {
            throw new IOException("not gzip (no 1f 8b 08 header)");
        }
        int flags = b[3];
        int at = 10;
        if ((flags & FEXTRA) != 0) {
            at += 2 + ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8);
        }
        if ((flags & FNAME) != 0) {
            at = afterZero(b, at);
        }
        if ((flags & FCOMMENT) != 0) {
            at = afterZero(b, at);
        }
        if ((flags & FHCRC) != 0) {
            at += 2;
        }
        if (at > b.length) {
            throw new IOException("the gzip header is cut short");
        }
        return at;
    }

    private static int afterZero(byte[] b, int at) throws IOException {
        while (at < b.length && b[at] != 0) {
            at++;
        }
        if (at == b.length) {
            throw new IOException("the gzip header is cut short");
        }
        return at + 1;
    }

    private static int le32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
