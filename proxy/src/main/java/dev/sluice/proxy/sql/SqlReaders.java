package dev.sluice.proxy.sql;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * What reading a statement's SQL reuses from one statement to the next, one set per event loop
 * thread: the classifier and the digest keep buffers, and a frame that is not one array is copied
 * into a scratch array to be read. One of these per proxy, handed to its sessions; its threads
 * each get their own set from it.
 */
public final class SqlReaders {

    private final FastThreadLocal<StatementClassifier> classifier = new FastThreadLocal<>() {
        @Override
        protected StatementClassifier initialValue() {
            return new StatementClassifier();
        }
    };
    private final FastThreadLocal<Digest> digest = new FastThreadLocal<>() {
        @Override
        protected Digest initialValue() {
            return new Digest();
        }
    };
    private final FastThreadLocal<byte[]> scratch = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[4096];
        }
    };

    /** This thread's classifier. */
    public StatementClassifier classifier() {
        return classifier.get();
    }

    /** This thread's digest. */
    public Digest digest() {
        return digest.get();
    }

    /** This thread's scratch array, at least {@code length} bytes long. */
    public byte[] scratch(int length) {
        byte[] bytes = scratch.get();
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
            scratch.set(bytes);
        }
        return bytes;
    }
}
