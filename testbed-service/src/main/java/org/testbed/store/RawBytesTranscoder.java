package org.testbed.store;

import net.spy.memcached.CachedData;
import net.spy.memcached.transcoders.Transcoder;

/**
 * Stores values as the raw bytes given: no Java serialization and no compression, so the stored
 * value is exactly the item's JSON and any Memcached client can read it.
 */
final class RawBytesTranscoder implements Transcoder<byte[]> {
    static final RawBytesTranscoder INSTANCE = new RawBytesTranscoder();
    private static final int FLAGS = 0;

    @Override
    public boolean asyncDecode(CachedData data) {
        return false;
    }

    @Override
    public CachedData encode(byte[] value) {
        return new CachedData(FLAGS, value, getMaxSize());
    }

    @Override
    public byte[] decode(CachedData data) {
        return data.getData();
    }

    @Override
    public int getMaxSize() {
        return CachedData.MAX_SIZE;
    }
}
